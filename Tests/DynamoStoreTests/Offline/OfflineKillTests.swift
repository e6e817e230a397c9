import DynamoAPI
import DynamoClient
import DynamoTestSupport
import Foundation
import Testing

/// A phone app (`offline-phone`, a child process) saving notes and visits with an offline
/// store, going offline and online, replaying and refreshing, SIGKILLed at random points: right
/// after a command was sent (anywhere in a save's local commit), or by its own transport at an
/// armed request, before sending it or after DynamoDB answered (a lost answer). After every
/// kill it is started again on the same file. Checked against a model of the acknowledged
/// saves: the relaunched phone shows every acknowledged save (and the one in flight at most
/// whole), and at the end DynamoDB holds exactly the model: every acknowledged save, none
/// twice (versions count the writes), both sides of every visit agreeing.
///
/// Size from the environment: `STORE_OFFLINE_KILL_SEEDS` (a count, or `a-b`; default 3) and
/// `STORE_OFFLINE_KILL_STEPS` (default 40).
@Suite("OfflineKillTests", .serialized)
struct OfflineKillTests {
    static var seeds: [UInt64] { environmentSeeds("STORE_OFFLINE_KILL_SEEDS", default: 3) }

    static var steps: Int { Int(ProcessInfo.processInfo.environment["STORE_OFFLINE_KILL_STEPS"] ?? "") ?? 40 }

    @Test(arguments: seeds)
    func aKilledPhoneLosesNoAcknowledgedSaveAndAppliesNoneTwice(seed: UInt64) async throws {
        try await withTestServer { endpoint in
            try await Self.run(seed: seed, endpoint: endpoint.url)
        }
    }

    /// The same against the `localdynamo` binary (as `scripts/run` starts it) on a data
    /// directory, instead of a server in the test process.
    @Test func againstTheLocalDynamoBinary() async throws {
        try await withTemporaryDirectory { data in
            let server = try await ServerProcess.start(dataDirectory: data)
            defer { server.kill() }
            try await Self.run(seed: 1_000, endpoint: server.endpoint)
        }
    }

    static func run(seed: UInt64, endpoint url: String) async throws {
        try await withTemporaryDirectory { directory in
            var random = SeededRandom(seed: seed)
            let file = directory.appendingPathComponent("phone.sqlite").path
            let policy = random.pick(["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
            var phone = try PhoneProcess(endpoint: url, file: file, policy: policy)
            #expect(await phone.run("create-tables").answer?.hasPrefix("ok") == true)
            var model = PhoneModel()
            var online = true
            var kills = 0
            for step in 0..<Self.steps {
                let command = model.nextCommand(&random, step: step, online: online)
                let killsRightAway = command.isSave && random.chance(10)
                if !killsRightAway && random.chance(15) {
                    let request = random.int(1..<4)
                    #expect(
                        await phone.run("die-at-request \(request) \(random.chance(50) ? "after" : "before")").answer?.hasPrefix("ok") == true)
                }
                phone.send(command.line)
                if killsRightAway { phone.kill() }
                let (_, answer) = await phone.answer()
                if let answer {
                    #expect(answer.hasPrefix("ok"), "seed \(seed) step \(step): \(command.line) → \(answer)")
                    if command.isSave { model.apply(command) }
                    if case .online(let now) = command { online = now }
                    continue
                }
                // Killed: start again on the same file and look at what it shows.
                kills += 1
                phone.waitForExit()
                phone = try PhoneProcess(endpoint: url, file: file, policy: policy)
                if case .online(let now) = command { online = now }
                if !online { _ = await phone.run("offline") }
                let shown = await phone.run("dump").lines
                var withCommand = model
                if command.isSave { withCommand.apply(command) }
                if shown == withCommand.lines {
                    model = withCommand
                } else {
                    #expect(shown == model.lines, "seed \(seed) step \(step): after a kill in \(command.line) the phone shows \(shown)")
                }
            }
            // The last launch: online, nothing armed.
            phone.kill()
            phone = try PhoneProcess(endpoint: url, file: file, policy: policy)
            let replayed = await phone.run("replay")
            #expect(replayed.answer?.hasPrefix("ok") == true)
            #expect(await phone.run("pending").lines == ["pending 0 failed 0"], "seed \(seed)")
            phone.kill()
            let client = try DynamoClient(
                configuration: DynamoClient.Configuration(
                    region: "us-east-1", endpoint: url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test")))
            #expect(try await PhoneModel.stored(in: client) == model.lines, "seed \(seed), \(kills) kills")
            #expect(kills > 0, "seed \(seed) never killed the phone: a longer schedule is needed")
        }
    }
}

/// What the phone's acknowledged saves make: notes (text, version, visits) and visits (note,
/// version), in the phone's `dump` lines.
struct PhoneModel: Equatable {
    enum Command {
        case insert(String)
        case set(String, String)
        case visit(String, String)
        case move(String, String)
        case online(Bool)
        case replay
        case refresh

        var isSave: Bool {
            switch self {
            case .insert, .set, .visit, .move: true
            case .online, .replay, .refresh: false
            }
        }

        var line: String {
            switch self {
            case .insert(let note): "insert \(note)"
            case .set(let note, let text): "set \(note) \(text)"
            case .visit(let note, let visit): "visit \(note) \(visit)"
            case .move(let visit, let note): "move \(visit) \(note)"
            case .online(let online): online ? "online" : "offline"
            case .replay: "replay"
            case .refresh: "refresh"
            }
        }
    }

    var notes: [String: (text: String, version: Int, visits: Set<String>)] = [:]
    var visits: [String: (note: String, version: Int)] = [:]
    var counter = 0

    static func == (lhs: PhoneModel, rhs: PhoneModel) -> Bool { lhs.lines == rhs.lines }

    /// A command that fits the model (an existing note to change, a visit to move).
    mutating func nextCommand(_ random: inout SeededRandom, step: Int, online: Bool) -> Command {
        counter += 1
        let roll = random.int(0..<100)
        if roll < 10 { return .online(!online) }
        if roll < 22 && online { return .replay }
        if roll < 26 && online { return .refresh }
        let noteIDs = notes.keys.sorted()
        if noteIDs.count < 2 || roll < 36 { return .insert("n\(counter)") }
        if roll < 62 { return .set(random.pick(noteIDs), "s\(counter)") }
        let visitIDs = visits.keys.sorted()
        if visitIDs.isEmpty || roll < 80 { return .visit(random.pick(noteIDs), "v\(counter)") }
        let visit = random.pick(visitIDs)
        let others = noteIDs.filter { $0 != visits[visit]?.note }
        return .move(visit, random.pick(others))
    }

    mutating func apply(_ command: Command) {
        switch command {
        case .insert(let note): notes[note] = ("t0", 1, [])
        case .set(let note, let text):
            notes[note]?.text = text
            notes[note]?.version += 1
        case .visit(let note, let visit):
            visits[visit] = (note, 1)
            notes[note]?.visits.insert(visit)
        case .move(let visit, let note):
            guard let old = visits[visit] else { return }
            visits[visit] = (note, old.version + 1)
            notes[old.note]?.visits.remove(visit)
            notes[note]?.visits.insert(visit)
        case .online, .replay, .refresh: return
        }
    }

    /// The phone's `dump` lines of this state.
    var lines: [String] {
        notes.keys.sorted().map { id in
            let note = notes[id]!
            return (["note", id, note.text, "\(note.version)"] + note.visits.sorted()).joined(separator: " ")
        } + visits.keys.sorted().map { "visit \($0) \(visits[$0]!.note) \(visits[$0]!.version)" }
    }

    /// The `dump` lines of what DynamoDB holds.
    static func stored(in client: DynamoClient) async throws -> [String] {
        func text(_ value: AttributeValue?) -> String {
            switch value {
            case .s(let text)?: text
            case .n(let number)?: number.description
            default: "-"
            }
        }
        let notes = try await client.scan(ScanInput(tableName: "PhoneNotes")).items ?? []
        let visits = try await client.scan(ScanInput(tableName: "PhoneVisits")).items ?? []
        return notes.map { item in
            let linked: [String] = if case .ss(let ids)? = item["visits"] { ids.sorted() } else { [] }
            return (["note", text(item["id"]), text(item["text"]), text(item["version"])] + linked).joined(separator: " ")
        }.sorted() + visits.map { "visit \(text($0["id"])) \(text($0["note"])) \(text($0["version"]))" }.sorted()
    }
}
