import DynamoAPI
import Foundation

/// One target's run: the corpus entries as they are, then seeded mutations of them, each
/// input watched by `CrashGuard`; prints the figures as one JSON line.
struct FuzzRun {
    struct Options {
        var inputs = 10_000
        var seed: UInt64 = 20
        var corpus = "Tests/fuzz/corpus"
        var findings = ".build/fuzz-findings"
        var timeLimitMilliseconds: UInt64 = 5_000
        var replay: String?
    }

    let target: any FuzzTarget
    let options: Options

    /// Keeps an input under `findings`; a finding that cannot be kept is said on standard error
    /// (the run goes on: its figures still count).
    private func save(_ input: [UInt8], to path: String) {
        guard FileManager.default.createFile(atPath: path, contents: Data(input)) else {
            FileHandle.standardError.write(Data("localdynamo-fuzz: could not write \(path)\n".utf8))
            return
        }
    }

    /// Runs and returns the exit status: 0, or 1 when a property broke.
    func run() -> Int32 {
        CrashGuard.install(
            findings: options.findings, target: target.name,
            timeLimitMilliseconds: options.timeLimitMilliseconds)
        if let replay = options.replay {
            guard let data = FileManager.default.contents(atPath: replay) else { return 2 }
            let outcome = runOne(Array(data))
            print(outcome)
            return outcome.hasPrefix("BUG") ? 1 : 0
        }
        let corpus = loadCorpus()
        guard !corpus.isEmpty else {
            FileHandle.standardError.write(Data("localdynamo-fuzz: no corpus in \(options.corpus)/\(target.corpusFolders)\n".utf8))
            return 2
        }
        var mutator = Mutator(seed: options.seed, dictionary: target.dictionary, maximumSize: target.maximumInputSize)
        var outcomes: [String: Int] = [:]
        var bugs = 0
        var slowest = 0.0
        var previous = corpus[0]
        let start = Date()
        for number in 0..<options.inputs {
            let input: [UInt8]
            if number < corpus.count {
                input = corpus[number]
            } else {
                let base = mutator.chance(25) ? previous : mutator.pick(corpus)
                // Half the inputs of a target that knows its inputs' structure keep it.
                let structural = mutator.chance(50) ? target.mutateStructurally(base, using: &mutator) : nil
                input = structural ?? mutator.mutate(base, corpus: corpus)
            }
            previous = input.count < target.maximumInputSize / 2 ? input : mutator.pick(corpus)
            let before = Date()
            let outcome = runOne(input)
            let elapsed = Date().timeIntervalSince(before)
            if elapsed > slowest {
                slowest = elapsed
                save(input, to: "\(options.findings)/slowest-\(target.name).bin")
            }
            if outcome.hasPrefix("BUG") {
                bugs += 1
                let path = "\(options.findings)/bug-\(target.name)-\(number).bin"
                save(input, to: path)
                FileHandle.standardError.write(Data("localdynamo-fuzz: \(target.name) input \(number): \(outcome) (saved to \(path))\n".utf8))
            }
            outcomes[outcome.hasPrefix("BUG") ? "BUG" : outcome, default: 0] += 1
        }
        var writer = JSONWriter()
        writer.write(
            JSONValue.object([
                "target": .string(target.name), "inputs": .number(String(options.inputs)),
                "seed": .number(String(options.seed)), "corpus": .number(String(corpus.count)),
                "seconds": .number(String(format: "%.1f", Date().timeIntervalSince(start))),
                "slowest_ms": .number(String(format: "%.1f", slowest * 1000)), "crashes": .number("0"), "hangs": .number("0"),
                "bugs": .number(String(bugs)),
                "outcomes": .object(outcomes.mapValues { .number(String($0)) }),
            ]))
        print(writer.string)
        return bugs == 0 ? 0 : 1
    }

    private func runOne(_ input: [UInt8]) -> String {
        CrashGuard.begin(input)
        defer { CrashGuard.end() }
        return target.run(input)
    }

    /// The target's corpus files, sorted by name, each prepared by the target.
    private func loadCorpus() -> [[UInt8]] {
        target.corpusFolders.flatMap { folderName in
            let folder = "\(options.corpus)/\(folderName)"
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            return names.compactMap { name in
                FileManager.default.contents(atPath: "\(folder)/\(name)")
                    .map { target.prepare(corpusEntry: Array($0), fileName: name) }
            }
        }
    }
}
