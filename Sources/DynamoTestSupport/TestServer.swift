import DynamoServer

/// Where an in-process test server listens.
public struct TestEndpoint: Sendable {
    /// Always `127.0.0.1`.
    public let host: String
    /// The ephemeral port the server bound.
    public let port: Int
    /// `http://127.0.0.1:<port>`, for SDK clients.
    public var url: String { "http://\(host):\(port)" }
}

/// Runs `body` against a fresh server on an ephemeral port, shutting it down afterwards (also
/// when `body` throws).
///
/// - Parameters:
///   - namespace: how requests map to sets of tables.
///   - dataDirectory: `nil` (the default) keeps everything in memory.
///   - clockStart: where the server's clock starts (seconds since 1970); `nil` for now.
///   - body: receives the endpoint.
public func withTestServer<T>(
    namespace: LocalDynamoServer.Namespace = .perRegion,
    dataDirectory: String? = nil,
    clockStart: Double? = nil,
    _ body: (TestEndpoint) async throws -> T
) async throws -> T {
    try await withTestServer(configuration: .init(
        host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, namespace: namespace, clockStart: clockStart), body)
}
