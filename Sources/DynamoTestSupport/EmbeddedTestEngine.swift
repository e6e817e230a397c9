import DynamoEmbedded
import DynamoServer

/// Runs `body` against a fresh LocalDynamo engine inside this process, with no socket at all,
/// shutting it down afterwards (also when `body` throws).
///
/// The engine answers through ``DynamoEmbedded/EmbeddedTransport``: the server's own request
/// pipeline (validation, errors, answers byte for byte as over a socket) without a connection,
/// so a call costs microseconds rather than a loopback round trip. For tests that need a URL
/// (another SDK, a subprocess), use ``withTestServer(namespace:dataDirectory:clockStart:errorWording:_:)``.
///
/// ```swift
/// import DynamoClient
/// import DynamoTestSupport
/// import Testing
///
/// @Test func savesANote() async throws {
///     try await withEmbeddedEngine { engine in
///         let client = engine.client()
///         _ = try await client.send(CreateTableInput(/* … */))
///     }
/// }
/// ```
///
/// - Parameters:
///   - configuration: The server's settings (faults, consistency, clock start, a data
///     directory …); `host` and `port` are not used. In memory by default.
///   - body: Receives the engine.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or the engine's error when it cannot open its storage.
public func withEmbeddedEngine<T>(
    configuration: LocalDynamoServer.Configuration = LocalDynamoServer.Configuration(),
    _ body: (EmbeddedEngine) async throws -> T
) async throws -> T {
    let engine = try EmbeddedEngine(configuration: configuration)
    do {
        let result = try await body(engine)
        await engine.shutdown()
        return result
    } catch {
        await engine.shutdown()
        throw error
    }
}
