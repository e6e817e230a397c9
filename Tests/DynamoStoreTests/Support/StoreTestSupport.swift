import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Synchronization

/// A transport that counts the requests per operation and can attach a header to the next
/// request (to arm the server's injected transaction conflicts).
final class RecordingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let state = Mutex<(counts: [String: Int], nextHeaders: [(String, String)])>(([:], []))

    /// A recorder in front of the test transport of `endpoint` (the socket, or in process; see
    /// `TestTransport`).
    init(_ endpoint: TestEndpoint) {
        inner = endpoint.transport
    }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        var request = request
        let operation = request.header("X-Amz-Target")?.split(separator: ".").last.map(String.init) ?? "?"
        let headers = state.withLock { state in
            state.counts[operation, default: 0] += 1
            defer { state.nextHeaders = [] }
            return state.nextHeaders
        }
        request.headers += headers.map { (name: $0.0, value: $0.1) }
        return try await inner.send(request, timeouts: timeouts)
    }

    /// Requests sent per operation name (`GetItem`, `BatchGetItem`, …) since the last reset.
    func count(_ operation: String) -> Int { state.withLock { $0.counts[operation] ?? 0 } }

    /// Forgets the counts.
    func resetCounts() { state.withLock { $0.counts = [:] } }

    /// Attaches a header to the next request only.
    func addToNextRequest(_ name: String, _ value: String) { state.withLock { $0.nextHeaders.append((name, value)) } }
}

/// A server, a client through a recording transport, and a store of the test model with its
/// tables created.
struct StoreFixture: Sendable {
    let store: DynamoStore
    let client: DynamoClient
    let transport: RecordingTransport

    /// A fresh context of the store.
    func context(_ policy: MergePolicy = .error) -> ObjectContext {
        let context = ObjectContext(store: store)
        context.mergePolicy = policy
        return context
    }

    /// The raw item of a row, read with a consistent `GetItem`.
    func item(_ table: String, _ key: Item) async throws -> Item? {
        try await client.getItem(GetItemInput(tableName: table, key: key, consistentRead: true)).item
    }

    /// Makes the next `count` transactions touching `table` fail with `TransactionConflict`.
    func injectTransactionConflicts(table: String, count: Int) async throws {
        transport.addToNextRequest("X-LocalDynamo-Transaction-Conflicts", "\(table)=\(count)")
        _ = try await client.describeTable(DescribeTableInput(tableName: table))
    }
}

/// A client of a test server that sends through `transport` (to count requests) and retries
/// throttling and transaction conflicts after 1 ms.
func makeTestClient(_ endpoint: TestEndpoint, transport: RecordingTransport) throws -> DynamoClient {
    var configuration = DynamoClient.Configuration(
        region: "us-east-1", endpoint: endpoint.url,
        credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
    configuration.transport = transport
    configuration.retry = RetryConfiguration(baseDelay: .milliseconds(1))
    return try DynamoClient(configuration: configuration)
}

/// Runs `body` against a fresh in-process server with the tables of `model` (default: the model
/// classes `types`, by default ``Models/types``) created, and the request counts reset.
func withStore<T>(
    model: StoreModel? = nil, types: [ManagedObject.Type] = Models.types, _ body: (StoreFixture) async throws -> T
) async throws -> T {
    try await withTestServer { endpoint in
        let transport = RecordingTransport(endpoint)
        let client = try makeTestClient(endpoint, transport: transport)
        let conflictRetry = RetryConfiguration(maximumAttempts: 3, baseDelay: .milliseconds(1))
        let store =
            if let model {
                DynamoStore(model: model, client: client, conflictRetry: conflictRetry)
            } else {
                try DynamoStore(types: types, client: client, conflictRetry: conflictRetry)
            }
        try await store.createTables(pollInterval: .milliseconds(10))
        transport.resetCounts()
        return try await body(StoreFixture(store: store, client: client, transport: transport))
    }
}
