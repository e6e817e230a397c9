import DynamoAPI
@testable import DynamoServer

/// A dispatcher that echoes what it was given, so tests can see what reached it.
///
/// Operations: `GetItem`/`PutItem` echo; `Slow` sleeps `{"ms": N}` milliseconds first; `Fail`
/// answers `ResourceNotFoundException`; `Throw` throws a non-DynamoDB error (→ 500);
/// `ListStreams` on the streams service echoes; `Gated` waits until `gate` is opened.
struct FakeDispatcher: DynamoDispatcher {
    struct Boom: Error {}

    static let operations: Set<String> = ["GetItem", "PutItem", "Slow", "Fail", "Throw", "Gated"]

    /// Holds `Gated` requests.
    var gate = Gate()

    func supports(target: DynamoTarget) -> Bool {
        switch target.service {
        case .dynamoDB: Self.operations.contains(target.operation)
        case .dynamoDBStreams: target.operation == "ListStreams"
        }
    }

    func dispatch(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) async throws -> DynamoResult {
        switch target.operation {
        case "Slow":
            let milliseconds = body.json["ms"].flatMap { if case .number(let text) = $0 { Int(text) } else { nil } } ?? 100
            try await Task.sleep(for: .milliseconds(milliseconds))
        case "Gated":
            await gate.pass()
        case "Fail":
            return .failure(.tableNotFound())
        case "Throw":
            throw Boom()
        default:
            break
        }
        let echo = JSONValue.object([
            "target": .string(target.description),
            "accessKeyID": .string(context.accessKeyID),
            "region": .string(context.region),
            "requestID": .string(context.requestID),
            "testHeader": context.headers["x-test-header"].map(JSONValue.string) ?? .null,
            "body": body.json,
        ])
        return .success(Array(echo.serialized.utf8))
    }
}

/// Runs `body` against a server on an ephemeral port, always shutting it down.
func withHTTPTestServer<T: Sendable>(
    _ configuration: HTTPServer.Configuration = .init(port: 0),
    dispatcher: any DynamoDispatcher = FakeDispatcher(),
    _ body: (HTTPServer, Int) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, dispatcher: dispatcher)
    let port = try await server.start()
    do {
        let result = try await body(server, port)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// A latch for `Gated` requests: tests wait until one arrived, then let it go.
actor Gate {
    private var arrived = 0
    private var isOpen = false
    private var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
    private var passWaiters: [CheckedContinuation<Void, Never>] = []

    /// Called by the dispatcher: counts the arrival and waits for `open()`.
    func pass() async {
        arrived += 1
        arrivalWaiters.forEach { $0.resume() }
        arrivalWaiters.removeAll()
        if isOpen { return }
        await withCheckedContinuation { passWaiters.append($0) }
    }

    /// Returns once at least one request arrived.
    func waitForArrival() async {
        if arrived > 0 { return }
        await withCheckedContinuation { arrivalWaiters.append($0) }
    }

    func open() {
        isOpen = true
        passWaiters.forEach { $0.resume() }
        passWaiters.removeAll()
    }
}
