// The phone of the offline kill tests (`OfflineKillTests`): a DynamoStore app with an offline
// store, driven by commands on standard input, one per line, answering `ok N` (N counts
// commands from 0) on standard output when a command has completed. The tests SIGKILL it at
// any point: right after sending a command, or from inside, when its transport reaches an
// armed request (before sending it, or after DynamoDB answered and before the app sees the
// answer: a lost answer).
//
//   create-tables                    creates the notes' and visits' tables
//   offline | online                 the transport refuses every request / sends them again
//   insert NOTE                      saves a new note (text "t0")
//   set NOTE TEXT                    saves a new text
//   visit NOTE VISIT                 saves a new visit of a note
//   move VISIT NOTE                  saves a visit moved to another note
//   replay                           replays the outbox (`resolution R` per entry, then `replayed N failed M`)
//   refresh                          refreshes the cache from DynamoDB
//   die-at-request K before|after    SIGKILLs itself at the K-th request from now
//   hold-at-request K before|after   at the K-th request from now prints `held K before|after`
//                                    and stops there (before sending it, or after DynamoDB
//                                    answered) until the test kills it; `hold-at-request 0`
//                                    disarms it
//   read MEMO                        a fresh context reads a memo: `memo ID A B VERSION` or `memo ID none`
//   edit MEMO a|b TEXT               a fresh context saves a memo's text `a` or `b`
//   dump                             prints the device's view: `note ID TEXT VERSION VISITS…`, `visit ID NOTE VERSION`
//   pending                          prints `pending N failed M`
//
// Usage: offline-phone ENDPOINT FILE POLICY
import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class Note: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version", tableName: "PhoneNotes") }
    @Attribute var id: String
    @Attribute var text: String
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "note") var visits: Set<Visit>
}

/// A memo with two texts, for the two-phone kill tests' merges (`OfflineTwoPhoneKillTests`).
final class Memo: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version", tableName: "PhoneMemos") }
    @Attribute var id: String
    @Attribute var a: String
    @Attribute var b: String?
    @Attribute var version: Int64 = 0
}

final class Visit: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version", tableName: "PhoneVisits") }
    @Attribute var id: String
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "visits") var note: Note?
}

/// The phone's radio: offline on command, and a SIGKILL (or a hold the test ends with one)
/// armed at a request.
final class PhoneTransport: HTTPTransport {
    private let inner = DynamoClient.defaultTransport(maximumConnections: 4)
    private let state = Mutex<(offline: Bool, stopIn: Int?, afterAnswer: Bool, holds: Bool)>((false, nil, false, false))

    func setOffline(_ offline: Bool) { state.withLock { $0.offline = offline } }

    func dieAt(request count: Int, afterAnswer: Bool) { state.withLock { $0 = ($0.offline, count, afterAnswer, false) } }

    func holdAt(request count: Int, afterAnswer: Bool) {
        state.withLock { $0 = ($0.offline, count > 0 ? count : nil, afterAnswer, true) }
    }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        let (offline, stops, afterAnswer, holds) = state.withLock { state -> (Bool, Int?, Bool, Bool) in
            guard !state.offline else { return (true, nil, false, false) }
            if let count = state.stopIn {
                state.stopIn = count - 1
                if count <= 1 { return (false, count, state.afterAnswer, state.holds) }
            }
            return (false, nil, false, false)
        }
        if offline { throw TransportError(.connectionFailed, "the phone is offline") }
        if stops != nil && !afterAnswer { stop(holds, "before") }
        let response = try await inner.send(request, timeouts: timeouts)
        if stops != nil { stop(holds, "after") }
        return response
    }

    /// SIGKILLs the process, or tells the test it is held here and waits for its SIGKILL.
    private func stop(_ holds: Bool, _ when: String) -> Never {
        if holds {
            OfflinePhone.say("held \(when)")
            while true { pause() }
        }
        _ = kill(getpid(), SIGKILL)
        fatalError("SIGKILL did not stop the process")
    }
}

@main
enum OfflinePhone {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else {
            FileHandle.standardError.write(Data("usage: offline-phone ENDPOINT FILE POLICY\n".utf8))
            exit(2)
        }
        let transport = PhoneTransport()
        var configuration = DynamoClient.Configuration(
            region: "us-east-1", endpoint: arguments[1], credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
        configuration.transport = transport
        configuration.retry = .disabled
        let client = try DynamoClient(configuration: configuration)
        let offline = try OfflineStore(path: arguments[2])
        let store = try DynamoStore(types: [Note.self, Visit.self, Memo.self], client: client, offline: offline)
        let context = ObjectContext(store: store)
        context.mergePolicy = policy(arguments[3])
        var number = 0
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            guard let command = words.first else { continue }
            do {
                try await run(command, Array(words.dropFirst()), context: context, transport: transport)
                say("ok \(number)")
            } catch {
                say("error \(number) \(error)")
            }
            number += 1
        }
    }

    static func policy(_ name: String) -> MergePolicy {
        switch name {
        case "storeTrump": .mergeByPropertyStoreTrump
        case "objectTrump": .mergeByPropertyObjectTrump
        case "overwrite": .overwrite
        case "rollback": .rollback
        default: .error
        }
    }

    static func run(_ command: String, _ words: [String], context: ObjectContext, transport: PhoneTransport) async throws {
        let store = context.store
        switch command {
        case "create-tables": try await store.createTables(pollInterval: .milliseconds(10))
        case "offline": transport.setOffline(true)
        case "online": transport.setOffline(false)
        case "insert":
            let note = Note(context: context)
            note.id = words[0]
            note.text = "t0"
            try await context.save()
        case "set":
            try await note(words[0], in: context).text = words[1]
            try await context.save()
        case "visit":
            let visit = Visit(context: context)
            visit.id = words[1]
            visit.note = try await note(words[0], in: context)
            try await context.save()
        case "move":
            guard let visit = try await context.existingObject(with: ObjectID(entityName: "Visit", key: ["id": .s(words[0])]), as: Visit.self) else {
                throw StoreError.invalidValue("no visit \(words[0])")
            }
            visit.note = try await note(words[1], in: context)
            try await context.save()
        case "replay":
            let outcomes = try await store.replayOutbox()
            for outcome in outcomes {
                say("resolution \(outcome.objects.values.map { "\($0)" }.sorted().joined(separator: ","))")
            }
            say("replayed \(outcomes.count) failed \(outcomes.filter { $0.failure != nil }.count)")
        case "refresh":
            try await store.refreshCache()
        case "die-at-request":
            transport.dieAt(request: Int(words[0]) ?? 1, afterAnswer: words.count > 1 && words[1] == "after")
        case "hold-at-request":
            transport.holdAt(request: Int(words[0]) ?? 0, afterAnswer: words.count > 1 && words[1] == "after")
        case "read":
            let fresh = ObjectContext(store: store)
            if let memo = try await fresh.existingObject(with: ObjectID(entityName: "Memo", key: ["id": .s(words[0])]), as: Memo.self) {
                say("memo \(memo.id) \(memo.a) \(memo.b ?? "-") \(memo.version)")
            } else {
                say("memo \(words[0]) none")
            }
        case "edit":
            let fresh = ObjectContext(store: store)
            fresh.mergePolicy = context.mergePolicy
            guard let memo = try await fresh.existingObject(with: ObjectID(entityName: "Memo", key: ["id": .s(words[0])]), as: Memo.self) else {
                throw StoreError.invalidValue("no memo \(words[0])")
            }
            if words[1] == "a" { memo.a = words[2] } else { memo.b = words[2] }
            try await fresh.save()
        case "pending":
            say("pending \(try store.offline?.pendingEntries().count ?? 0) failed \(try store.offline?.failedEntries().count ?? 0)")
        case "dump":
            let fresh = ObjectContext(store: store)
            for note in try await fresh.fetch(try FetchRequest<Note>(in: store.model)).sorted(by: { $0.id < $1.id }) {
                say((["note", note.id, note.text, "\(note.version)"] + note.visits.map { name($0.objectID) }.sorted()).joined(separator: " "))
            }
            for visit in try await fresh.fetch(try FetchRequest<Visit>(in: store.model)).sorted(by: { $0.id < $1.id }) {
                say("visit \(visit.id) \(visit.note.map { name($0.objectID) } ?? "-") \(visit.version)")
            }
        default:
            throw StoreError.invalidValue("unknown command \(command)")
        }
    }

    /// Writes one line to standard output at once (no buffer a SIGKILL could lose).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A note's or visit's id.
    static func name(_ id: ObjectID) -> String {
        if case .s(let text)? = id.key["id"] { return text }
        return "?"
    }

    static func note(_ id: String, in context: ObjectContext) async throws -> Note {
        guard let note = try await context.existingObject(with: ObjectID(entityName: "Note", key: ["id": .s(id)]), as: Note.self) else {
            throw StoreError.invalidValue("no note \(id)")
        }
        return note
    }
}
