import Foundation

// localdynamo-fuzz: a seeded mutation fuzzer for the request path's parsers (see FuzzRun and
// scripts/fuzz, which also drives the HTTP layer of the real binary).
let usage = """
    usage: localdynamo-fuzz <json|shapes|expressions|partiql|sigv4> [--inputs N] [--seed S]
                            [--corpus DIR] [--findings DIR] [--time-limit-ms MS]
           localdynamo-fuzz <target> --replay FILE

    Mutates the corpus files of Tests/fuzz/corpus/<target>/ (seeded: the same seed gives the same
    inputs) and runs each input through the target. Prints one JSON line of figures. A crash or an
    input running past the time limit saves the input to <findings>/crash-<target>.bin or
    hang-<target>.bin; a broken property (JSON that does not read back) to bug-<target>-<n>.bin
    and exit status 1.
    """

let targets: [any FuzzTarget] = [JSONTarget(), ShapeTarget(), ExpressionTarget(), PartiQLTarget(), SigV4Target()]
var arguments = Array(CommandLine.arguments.dropFirst())
guard let targetName = arguments.first, let target = targets.first(where: { $0.name == targetName }) else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
var options = FuzzRun.Options()
var index = 1
while index < arguments.count {
    let value = index + 1 < arguments.count ? arguments[index + 1] : ""
    switch arguments[index] {
    case "--inputs": options.inputs = Int(value) ?? options.inputs
    case "--seed": options.seed = UInt64(value) ?? options.seed
    case "--corpus": options.corpus = value
    case "--findings": options.findings = value
    case "--time-limit-ms": options.timeLimitMilliseconds = UInt64(value) ?? options.timeLimitMilliseconds
    case "--replay": options.replay = value
    default:
        FileHandle.standardError.write(Data("localdynamo-fuzz: unknown option \(arguments[index])\n\(usage)\n".utf8))
        exit(2)
    }
    index += 2
}
exit(FuzzRun(target: target, options: options).run())
