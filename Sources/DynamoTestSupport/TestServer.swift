import DynamoServer

/// Runs `body` against a fresh in-memory server on an ephemeral port, shutting it down after.
///
/// - Parameter body: receives the server's base URL, e.g. `http://127.0.0.1:54321`.
public func withTestServer<T>(
    namespace: LocalDynamoServer.Namespace = .perRegion,
    dataDirectory: String? = nil,
    _ body: (String) async throws -> T
) async throws -> T {
    let server = try LocalDynamoServer(configuration: .init(
        host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, namespace: namespace))
    let port = try await server.start()
    do {
        let result = try await body("http://127.0.0.1:\(port)")
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
