import DynamoAPI
import DynamoServer

/// Where an in-process test server listens.
public struct TestEndpoint: Sendable {
    /// Always `127.0.0.1`.
    public let host: String
    /// The ephemeral port the server bound.
    public let port: Int
    /// `http://127.0.0.1:<port>`, for SDK clients.
    public var url: String { "http://\(host):\(port)" }
    /// The server itself, for its in-process controls: ``LocalDynamoServer/settleConsistency()``,
    /// ``LocalDynamoServer/advanceClock(by:)``, ``LocalDynamoServer/setConsistency(_:table:)``.
    public let server: LocalDynamoServer
}

/// Runs `body` against a fresh LocalDynamo server on an ephemeral port of `127.0.0.1`, shutting
/// it down afterwards (also when `body` throws).
///
/// The server runs in this process (no binary, no Docker), in memory unless `dataDirectory` is
/// given, so each test gets its own empty set of tables in a few milliseconds. Point any
/// DynamoDB client at ``TestEndpoint/url`` with any credentials, or take DynamoClient's from
/// ``TestEndpoint/client(region:)``, which goes over the socket or, with
/// `LOCALDYNAMO_TEST_TRANSPORT=embedded`, in process to this same server (``TestTransport``):
///
/// ```swift
/// import DynamoClient
/// import DynamoTestSupport
/// import Testing
///
/// @Test func savesANote() async throws {
///     try await withTestServer { endpoint in
///         let client = endpoint.client()
///         _ = try await client.send(CreateTableInput(/* … */))
///     }
/// }
/// ```
///
/// A test with no use for a socket at all can take ``withEmbeddedEngine(configuration:_:)``.
///
/// - Parameters:
///   - namespace: how requests map to sets of tables.
///   - dataDirectory: `nil` (the default) keeps everything in memory.
///   - clockStart: where the server's clock starts (seconds since 1970); `nil` for now.
///   - errorWording: the wording of DynamoDB's `ValidationException`s the server answers in
///     (`serve --error-wording`): `.v2026`, the default, or `.v2025`.
///   - body: receives the endpoint.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws, or the server's error when it cannot start.
public func withTestServer<T>(
    namespace: LocalDynamoServer.Namespace = .perRegion,
    dataDirectory: String? = nil,
    clockStart: Double? = nil,
    errorWording: ErrorWording = .default,
    _ body: (TestEndpoint) async throws -> T
) async throws -> T {
    var configuration = LocalDynamoServer.Configuration(
        dataDirectory: dataDirectory, namespace: namespace, clockStart: clockStart)
    configuration.errorWording = errorWording
    return try await withTestServer(configuration: configuration, body)
}

/// Runs `body` against a fresh server with any ``LocalDynamoServer/Configuration`` (faults,
/// a stand-in S3 directory, the TTL sweeper's interval …); its host and port are replaced by
/// `127.0.0.1` and an ephemeral port.
///
/// ```swift
/// var configuration = LocalDynamoServer.Configuration()
/// configuration.faults = ["operation=PutItem,error=ThrottlingException,rate=0.5"]
/// try await withTestServer(configuration: configuration) { endpoint in /* … */ }
/// ```
///
/// With `configuration.consistency = .init(mode: .service, seed: 42)` reads lag writes as in
/// DynamoDB (eventually consistent reads, global indexes, streams); ``TestEndpoint/server``
/// ends the lag with `settleConsistency()` or `advanceClock(by:)`.
///
/// - Parameters:
///   - configuration: the server's settings.
///   - body: receives the endpoint.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws, or the server's error when it cannot start.
public func withTestServer<T>(
    configuration: LocalDynamoServer.Configuration,
    _ body: (TestEndpoint) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = try LocalDynamoServer(configuration: configuration)
    let port = try await server.start()
    do {
        let result = try await body(TestEndpoint(host: "127.0.0.1", port: port, server: server))
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
