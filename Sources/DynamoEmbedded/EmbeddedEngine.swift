import DynamoClient
import DynamoServer
import Logging

/// LocalDynamo's engine inside this process, with no socket: a local table for an app, or a
/// DynamoDB for unit tests, reached through ``EmbeddedTransport``.
///
/// It is a ``DynamoServer/LocalDynamoServer`` that never listens: the same configuration
/// (in memory unless `dataDirectory` is set, faults, `--consistency service`, the clock …), the
/// same operations, validation, errors and answers as over a socket. Shut it down when done.
///
/// ```swift
/// let engine = try EmbeddedEngine()
/// let client = engine.client()
/// _ = try await client.listTables(ListTablesInput())
/// await engine.shutdown()
/// ```
public final class EmbeddedEngine: Sendable {
    /// The server behind the transport, for its in-process controls (`advanceClock(by:)`,
    /// `settleConsistency()`, `setConsistency(_:table:)`).
    public let server: LocalDynamoServer
    /// The transport to the engine; any number of clients may share it.
    public let transport: EmbeddedTransport

    /// Opens the storage and starts the engine's threads (database pool, TTL sweeper, stream
    /// delivery); no port is bound.
    ///
    /// - Parameters:
    ///   - configuration: The server's settings; `host` and `port` are not used.
    ///   - logger: Where the server logs.
    /// - Throws: When the data directory cannot be opened, or a setting is invalid (as
    ///   `LocalDynamoServer.init(configuration:logger:)`).
    public init(
        configuration: LocalDynamoServer.Configuration = LocalDynamoServer.Configuration(),
        logger: Logger = Logger(label: "localdynamo")
    ) throws {
        server = try LocalDynamoServer(configuration: configuration, logger: logger)
        server.startInProcess()
        transport = EmbeddedTransport(server: server)
    }

    /// A client of the engine: region `region`, fixed dummy credentials, nothing read from the
    /// environment (as `DynamoClient.local(port:host:region:transport:)`).
    ///
    /// - Parameter region: The region to sign for, which names the set of tables under the
    ///   default per-region namespace (default `us-east-1`).
    /// - Returns: A client whose every request goes to this engine.
    public func client(region: String = "us-east-1") -> DynamoClient {
        DynamoClient.local(host: "localhost", region: region, transport: transport)
    }

    /// Lets running requests finish, then stops the engine's threads and closes its databases.
    /// Requests sent afterwards fail.
    public func shutdown() async {
        await server.shutdown()
    }
}
