import DynamoServer

/// Runs `body` against a fresh server built from `configuration` (its host and port are
/// replaced by `127.0.0.1` and an ephemeral port), shutting it down afterwards, also when
/// `body` throws: for tests that need settings the other overload does not take
/// (`credentialsFile`, `throttle`, …).
///
/// ```swift
/// var configuration = LocalDynamoServer.Configuration(dataDirectory: nil)
/// configuration.credentialsFile = path
/// try await withTestServer(configuration: configuration) { endpoint in … }
/// ```
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
        let result = try await body(TestEndpoint(host: "127.0.0.1", port: port))
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
