import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Synchronization

/// A memo with two independent texts: the property merges of the conflict tests.
final class Memo: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version", tableName: "OfflineMemos") }
    @Attribute var id: String
    @Attribute var a: String
    @Attribute var b: String?
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "memo") var pins: Set<Pin>
}

/// A pin on one memo (the inverse the graph checks follow).
final class Pin: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version", tableName: "OfflinePins") }
    @Attribute var id: String
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "pins") var memo: Memo?
}

/// The phone's radio in process: every request refused while offline, and the answers of the
/// next writes lost (the request reaches DynamoDB, the app sees a dropped connection).
final class PhoneRadio: HTTPTransport {
    private let inner: any HTTPTransport
    private let state = Mutex<(offline: Bool, lostAnswers: Int, answeredFirst: Int, counts: [String: Int])>((false, 0, 0, [:]))

    /// A radio in front of `inner` (the test server's transport).
    init(inner: any HTTPTransport) {
        self.inner = inner
    }

    var isOffline: Bool {
        get { state.withLock { $0.offline } }
        set { state.withLock { $0.offline = newValue } }
    }

    /// Loses the answers of the next `count` writes (PutItem, UpdateItem, DeleteItem,
    /// TransactWriteItems) after DynamoDB stored them.
    func loseAnswers(of count: Int) { loseAnswers(of: count, after: 0) }

    /// Loses the answers of `count` writes after the next `answered` writes were answered.
    func loseAnswers(of count: Int, after answered: Int) {
        state.withLock {
            $0.lostAnswers = count
            $0.answeredFirst = answered
        }
    }

    /// Attaches a header to the next request only (to arm the server's injected faults).
    func addToNextRequest(_ name: String, _ value: String) { nextHeaders.withLock { $0.append((name, value)) } }

    private let nextHeaders = Mutex<[(String, String)]>([])

    /// Requests sent per operation since the last reset.
    func count(_ operation: String) -> Int { state.withLock { $0.counts[operation] ?? 0 } }

    func resetCounts() { state.withLock { $0.counts = [:] } }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        let operation = request.header("X-Amz-Target")?.split(separator: ".").last.map(String.init) ?? "?"
        let write = ["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"].contains(operation)
        let (offline, loses) = state.withLock { state -> (Bool, Bool) in
            if state.offline { return (true, false) }
            state.counts[operation, default: 0] += 1
            guard write, state.lostAnswers > 0 else { return (false, false) }
            if state.answeredFirst > 0 {
                state.answeredFirst -= 1
                return (false, false)
            }
            state.lostAnswers -= 1
            return (false, true)
        }
        if offline { throw TransportError(.connectionFailed, "the phone is offline") }
        var request = request
        request.headers += nextHeaders.withLock { headers in
            defer { headers = [] }
            return headers.map { (name: $0.0, value: $0.1) }
        }
        let response = try await inner.send(request, timeouts: timeouts)
        if loses { throw TransportError(.connectionLost, "the answer was lost") }
        return response
    }
}

/// One phone: its radio, its offline file and the store over them; ``relaunch()`` starts the
/// app again on the same file (what a killed app finds when it starts).
final class Phone {
    let radio: PhoneRadio
    let path: String
    let endpoint: TestEndpoint
    private(set) var store: DynamoStore
    private(set) var offline: OfflineStore
    let maximumCachedRows: Int

    init(endpoint: TestEndpoint, path: String, maximumCachedRows: Int = 10_000) throws {
        self.endpoint = endpoint
        self.radio = PhoneRadio(inner: endpoint.transport)
        self.path = path
        self.maximumCachedRows = maximumCachedRows
        (store, offline) = try Self.open(endpoint: endpoint, path: path, radio: radio, maximumCachedRows: maximumCachedRows)
    }

    /// Drops the store and opens the file again (the app's next launch).
    func relaunch() throws {
        (store, offline) = try Self.open(endpoint: endpoint, path: path, radio: radio, maximumCachedRows: maximumCachedRows)
    }

    func context(_ policy: MergePolicy = .error) -> ObjectContext {
        let context = ObjectContext(store: store)
        context.mergePolicy = policy
        return context
    }

    private static func open(endpoint: TestEndpoint, path: String, radio: PhoneRadio, maximumCachedRows: Int) throws -> (DynamoStore, OfflineStore) {
        var configuration = DynamoClient.Configuration(
            region: "us-east-1", endpoint: endpoint.url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
        configuration.transport = radio
        configuration.retry = .disabled
        let offline = try OfflineStore(path: path, maximumCachedRows: maximumCachedRows)
        let store = try DynamoStore(types: [Memo.self, Pin.self], client: try DynamoClient(configuration: configuration), offline: offline)
        return (store, offline)
    }
}

/// A server with the memo tables, a plain (online) client to look at rows, and phones made
/// on demand, each on its own file in a fresh directory.
struct OfflineFixture {
    let endpoint: TestEndpoint
    let client: DynamoClient
    let directory: URL

    func phone(_ name: String, maximumCachedRows: Int = 10_000) throws -> Phone {
        try Phone(endpoint: endpoint, path: directory.appendingPathComponent("\(name).sqlite").path, maximumCachedRows: maximumCachedRows)
    }

    /// A memo's row as DynamoDB holds it.
    func memo(_ id: String) async throws -> Item? {
        try await client.getItem(GetItemInput(tableName: "OfflineMemos", key: ["id": .s(id)], consistentRead: true)).item
    }

    /// Writes a memo row directly (another app, the console).
    func putMemo(_ id: String, a: String, b: String? = nil, version: Int) async throws {
        var item: Item = ["id": .s(id), "a": .s(a), "version": .n(DynamoNumber(version))]
        if let b { item["b"] = .s(b) }
        _ = try await client.putItem(PutItemInput(tableName: "OfflineMemos", item: item))
    }
}

func withOffline<T>(_ body: (OfflineFixture) async throws -> T) async throws -> T {
    try await withTestServer { endpoint in
        try await withTemporaryDirectory { directory in
            var configuration = DynamoClient.Configuration(
                region: "us-east-1", endpoint: endpoint.url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
            configuration.retry = RetryConfiguration(baseDelay: .milliseconds(1))
            configuration.transport = endpoint.transport
            let client = try DynamoClient(configuration: configuration)
            try await DynamoStore(types: [Memo.self, Pin.self], client: client).createTables(pollInterval: .milliseconds(10))
            return try await body(OfflineFixture(endpoint: endpoint, client: client, directory: directory))
        }
    }
}

/// The seeds of a seeded test, from an environment variable: a count (`5`: seeds 1…5) or a
/// range (`a-b`); `count` seeds when it is not set.
func environmentSeeds(_ variable: String, default count: UInt64) -> [UInt64] {
    let text = ProcessInfo.processInfo.environment[variable] ?? "\(count)"
    let parts = text.split(separator: "-").compactMap { UInt64($0) }
    if parts.count == 2 { return Array(parts[0]...parts[1]) }
    return Array(1...max(1, parts.first ?? count))
}

extension Item {
    /// A string attribute's text.
    func text(_ name: String) -> String? {
        if case .s(let text)? = self[name] { return text }
        return nil
    }

    /// A number attribute as an integer.
    func integer(_ name: String) -> Int? {
        if case .n(let number)? = self[name] { return Int(number.description) }
        return nil
    }
}
