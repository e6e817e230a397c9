import DynamoEngine
import Logging
import NIOCore
import NIOPosix

/// A complete LocalDynamo server: the engine, a thread pool for its blocking SQLite calls, and
/// the HTTP front end.
///
/// ```swift
/// let server = LocalDynamoServer(configuration: .init(port: 0, storage: .inMemory))
/// let port = try await server.start()
/// // point any AWS SDK at http://127.0.0.1:\(port)
/// await server.shutdown()
/// ```
public final class LocalDynamoServer: Sendable {
    /// How the server listens and stores.
    public struct Configuration: Sendable {
        /// The address to bind.
        public var host: String
        /// The port; `0` picks a free one.
        public var port: Int
        /// Where tables live: `nil` keeps everything in memory, otherwise a directory that holds
        /// one SQLite file per namespace.
        public var dataDirectory: String?
        /// How requests map to sets of tables.
        public var namespace: Namespace
        /// The largest request body accepted.
        public var maximumRequestBodyBytes: Int
        /// Threads that run SQLite calls.
        public var databaseThreads: Int
        /// Injected transaction conflicts, armed in every namespace when it opens: the next N
        /// writes to each named table conflict (`serve --transaction-conflicts TABLE=N`, the
        /// same as the `X-LocalDynamo-Transaction-Conflicts` request header).
        public var transactionConflicts: [String: Int]
        /// Where the server's clock starts, in seconds since 1970 (`serve --clock-start`); `nil`
        /// starts it at the system time. Tests move it with `POST /_localdynamo/clock`.
        public var clockStart: Double?
        /// Whether the admin API (`/_localdynamo/…`) answers callers that are not on loopback.
        public var adminFromAnywhere: Bool

        public init(host: String = "127.0.0.1", port: Int = 8000, dataDirectory: String? = nil,
                    namespace: Namespace = .perRegion, maximumRequestBodyBytes: Int = 16 * 1024 * 1024,
                    databaseThreads: Int = max(2, System.coreCount), transactionConflicts: [String: Int] = [:],
                    clockStart: Double? = nil, adminFromAnywhere: Bool = false) {
            self.clockStart = clockStart
            self.adminFromAnywhere = adminFromAnywhere
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.namespace = namespace
            self.maximumRequestBodyBytes = maximumRequestBodyBytes
            self.databaseThreads = databaseThreads
            self.transactionConflicts = transactionConflicts
        }
    }

    /// How requests are grouped into separate sets of tables.
    public enum Namespace: String, Sendable, CaseIterable {
        /// One set of tables per region, as one AWS account sees DynamoDB.
        case perRegion = "per-region"
        /// One set per access key id and region (DynamoDB Local's default).
        case perAccessKey = "per-access-key"
        /// One set for every request (DynamoDB Local's `-sharedDb`).
        case shared
    }

    public let configuration: Configuration
    private let engine: DynamoEngine
    private let threadPool: NIOThreadPool
    private let http: HTTPServer

    /// Opens the storage; nothing listens until ``start()``.
    /// - Throws: when the data directory cannot be created.
    public init(configuration: Configuration, logger: Logger = Logger(label: "localdynamo")) throws {
        self.configuration = configuration
        let mode: NamespaceMode = switch configuration.namespace {
        case .perRegion: .perRegion
        case .perAccessKey: .perAccessKey
        case .shared: .shared
        }
        engine = try DynamoEngine(
            storage: configuration.dataDirectory.map { .directory($0) } ?? .inMemory,
            namespaceMode: mode, logger: logger,
            transactionConflicts: configuration.transactionConflicts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            clock: ServerClock(startingAt: configuration.clockStart))
        threadPool = NIOThreadPool(numberOfThreads: configuration.databaseThreads)
        let dispatcher = EngineDispatcher(engine: engine, threadPool: threadPool, logger: logger)
        let admin = AdminRouter(routes: AdminRoutes.all,
                                environment: AdminEnvironment(engine: engine, threadPool: threadPool, logger: logger),
                                allowRemote: configuration.adminFromAnywhere)
        http = HTTPServer(
            configuration: .init(host: configuration.host, port: configuration.port,
                                 maximumRequestBodyBytes: configuration.maximumRequestBodyBytes),
            dispatcher: dispatcher, admin: admin, clock: engine.clock, logger: logger)
    }

    /// Starts listening.
    /// - Returns: the bound port (the chosen one when the configuration says `0`).
    @discardableResult
    public func start() async throws -> Int {
        threadPool.start()
        return try await http.start()
    }

    /// Stops accepting, lets in-flight requests finish, then closes the databases.
    public func shutdown() async {
        await http.shutdown()
        try? await threadPool.shutdownGracefully()
        engine.close()
    }
}
