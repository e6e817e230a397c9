import DynamoAPI
import DynamoEngine
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// A complete LocalDynamo server: the engine, a thread pool for its blocking SQLite calls, and
/// the HTTP front end.
///
/// ```swift
/// let server = try LocalDynamoServer(configuration: .init(port: 0)) // dataDirectory nil: tables in memory
/// let port = try await server.start()
/// // point any AWS SDK at http://127.0.0.1:\(port)
/// await server.shutdown()
/// ```
///
/// (The same lines run in `LocalDynamoServerTests.theDocumentedExampleRuns`.)
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
        /// Which browser origins get CORS headers (DynamoDB Local's `-cors`); every origin by default.
        public var cors: CORSPolicy = .anyOrigin
        /// Seconds DescribeTable keeps showing CREATING, UPDATING and DELETING (tables and global
        /// indexes) on the server clock, as DynamoDB does, where LocalDynamo finishes at once
        /// (DynamoDB Local's `-delayTransientStatuses`); `0`, the default, holds none.
        public var transientStatusDelay: Double = 0
        /// Where the server's clock starts, in seconds since 1970 (`serve --clock-start`); `nil`
        /// starts it at the system time. Tests move it with `POST /_localdynamo/clock`.
        public var clockStart: Double?
        /// Whether the admin API (`/_localdynamo/…`) answers callers that are not on loopback.
        public var adminFromAnywhere: Bool
        /// Faults armed at start, in `serve --fault` form (`table=Orders,error=InternalServerError,rate=0.1`).
        public var faults: [String]
        /// The seed of the faults' random draws (`serve --fault-seed`).
        public var faultSeed: UInt64
        /// The directory that stands in for S3 (`serve --s3-dir`): `s3://bucket/prefix` is
        /// `<dir>/bucket/prefix`. `nil` makes exports and imports fail with `S3NoSuchBucket`.
        public var s3Directory: String?
        /// Seconds between runs of the TTL sweeper (`serve --ttl-interval`); `0` disables it
        /// (`POST /_localdynamo/ttl/sweep` still runs it on demand).
        public var ttlSweepInterval: Double = 5
        /// `TABLE=http://host:port/path` settings (`serve --stream-target`): each table's stream
        /// records are posted there as Lambda events. Invalid ones make ``LocalDynamoServer/init(configuration:logger:)`` throw.
        public var streamTargets: [String] = []
        /// The most records per delivered event (`serve --stream-batch-size`).
        public var streamBatchSize: Int = 100
        /// With a file (`serve --require-auth --credentials FILE`, AWS shared-credentials format),
        /// every request, admin calls included, must carry a valid SigV4 signature of one of its
        /// identities; `nil` accepts any signature, as DynamoDB Local does.
        public var credentialsFile: String?
        /// Throttle tables at their capacity, as DynamoDB does (`serve --throttle`; see `CapacityThrottle`).
        public var throttle = false
        /// Seconds a signed request's time may differ from the server clock (`--clock-skew`);
        /// DynamoDB allows 15 minutes.
        public var allowedClockSkew: Double = 900
        /// Seconds a request may take to arrive from its first byte (`serve --request-timeout`);
        /// `0` for no limit.
        public var requestTimeout: Double = 60
        /// Seconds a keep-alive connection may idle between requests (`serve --idle-timeout`);
        /// `0` for no limit.
        public var idleTimeout: Double = 120
        /// The most connections open at once (`serve --max-connections`); `0` for no limit.
        public var maximumConnections: Int = 10_000
        /// Whether every commit is synced to disk (`serve --sync full`) or only checkpoints
        /// (`normal`, the default); see the README's durability notes.
        public var syncFull = false
        /// S3 and Kinesis beside the server (`serve --s3-endpoint`, `--kinesis-endpoint` …).
        public var neighbours = NeighbourOptions()
        /// How consistent reads are (`serve --consistency`): `exact` by default.
        public var consistency = Consistency()
        /// The wording of DynamoDB's `ValidationException`s the server answers in (`2026`, the
        /// default, or `2025`, as regions answered before the 2026 rollout; see
        /// ``DynamoAPI/ErrorWording``).
        public var errorWording = ErrorWording.default

        public init(
            host: String = "127.0.0.1", port: Int = 8000, dataDirectory: String? = nil,
            namespace: Namespace = .perRegion, maximumRequestBodyBytes: Int = 16 * 1024 * 1024,
            databaseThreads: Int = max(2, System.coreCount), transactionConflicts: [String: Int] = [:],
            clockStart: Double? = nil, adminFromAnywhere: Bool = false, faults: [String] = [],
            faultSeed: UInt64 = 0, s3Directory: String? = nil
        ) {
            self.faults = faults
            self.faultSeed = faultSeed
            self.clockStart = clockStart
            self.s3Directory = s3Directory
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
    let engine: DynamoEngine
    let threadPool: NIOThreadPool
    private let http: HTTPServer
    private let sweeper: TimeToLiveSweeper
    private let delivery: StreamTargetDelivery
    private let authenticator: RequestAuthenticator?
    /// Whether the thread pool, the TTL sweeper and stream delivery were started.
    private let servicesStarted = Mutex(false)
    /// The request pipeline for callers in this process (`DynamoEmbedded`'s transport): the
    /// same routing, checks, operation rows and answers as a connection's, with no socket.
    package let inProcess: InProcessFrontEnd

    /// Opens the storage; nothing listens until ``start()``.
    /// - Throws: when the data directory cannot be created, or a fault rule is malformed.
    public init(configuration: Configuration, logger: Logger = Logger(label: "localdynamo")) throws {
        self.configuration = configuration
        let mode: NamespaceMode =
            switch configuration.namespace {
            case .perRegion: .perRegion
            case .perAccessKey: .perAccessKey
            case .shared: .shared
            }
        let neighbours = try configuration.neighbours.resolve(s3Directory: configuration.s3Directory, logger: logger)
        engine = try DynamoEngine(
            storage: configuration.dataDirectory.map { .directory($0) } ?? .inMemory,
            namespaceMode: mode, logger: logger,
            transactionConflicts: configuration.transactionConflicts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            clock: ServerClock(startingAt: configuration.clockStart),
            transientStatusDelay: configuration.transientStatusDelay,
            objectStore: neighbours.store, kinesisSink: neighbours.sink,
            syncMode: configuration.syncFull ? .full : .normal, consistency: configuration.consistency.settings)
        threadPool = NIOThreadPool(numberOfThreads: configuration.databaseThreads)
        let faults = FaultInjector(
            seed: configuration.faultSeed,
            rules: try configuration.faults.map { try FaultInjector.Rule(spec: $0) })
        let dispatcher = EngineDispatcher(
            engine: engine, threadPool: threadPool, logger: logger, faults: faults,
            throttle: configuration.throttle ? CapacityThrottle() : nil, errorWording: configuration.errorWording)
        let metrics = ServerMetrics(operations: EngineDispatcher.operationNames)
        let admin = AdminRouter(
            routes: AdminRoutes.all,
            environment: AdminEnvironment(
                engine: engine, threadPool: threadPool, logger: logger,
                faults: faults, metrics: metrics),
            allowRemote: configuration.adminFromAnywhere)
        sweeper = TimeToLiveSweeper(
            engine: engine, threadPool: threadPool,
            interval: configuration.ttlSweepInterval, logger: logger)
        var targets: [StreamTarget] = []
        for setting in configuration.streamTargets {
            guard let target = StreamTarget(parsing: setting) else { throw InvalidStreamTarget(setting: setting) }
            targets.append(target)
        }
        delivery = StreamTargetDelivery(
            engine: engine, threadPool: threadPool, targets: targets,
            batchSize: max(1, min(configuration.streamBatchSize, 1000)), logger: logger)
        if let credentialsFile = configuration.credentialsFile {
            authenticator = try RequestAuthenticator(
                credentialsFile: credentialsFile,
                allowedSkew: configuration.allowedClockSkew, clock: engine.clock)
        } else {
            authenticator = nil
        }
        var httpConfiguration = HTTPServer.Configuration(
            host: configuration.host, port: configuration.port,
            maximumRequestBodyBytes: configuration.maximumRequestBodyBytes,
            cors: configuration.cors)
        httpConfiguration.authenticator = authenticator
        httpConfiguration.metrics = metrics
        httpConfiguration.timeouts = ConnectionTimeouts(
            request: ConnectionTimeouts.seconds(configuration.requestTimeout),
            idle: ConnectionTimeouts.seconds(configuration.idleTimeout))
        httpConfiguration.maximumConnections = configuration.maximumConnections > 0 ? configuration.maximumConnections : nil
        http = HTTPServer(
            configuration: httpConfiguration,
            dispatcher: dispatcher, admin: admin, clock: engine.clock, logger: logger)
        inProcess = InProcessFrontEnd(settings: http.handlerSettings)
    }

    /// Starts listening.
    /// - Returns: the bound port (the chosen one when the configuration says `0`).
    @discardableResult
    public func start() async throws -> Int {
        threadPool.start()
        let port = try await http.start()
        startInProcess()
        return port
    }

    /// Starts everything but the socket: the database threads, the TTL sweeper and stream
    /// delivery. Requests then arrive only through ``inProcess`` (the embedded engine), unless
    /// ``start()`` is called too. Calling it again does nothing.
    package func startInProcess() {
        let first = servicesStarted.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        threadPool.start()
        sweeper.start()
        delivery.start()
    }

    /// Re-reads the credentials file (`--require-auth`; the server calls it on SIGHUP). A file
    /// that fails to parse keeps the identities as they were.
    /// - Returns: how many identities are accepted now; `nil` when authentication is off.
    /// - Throws: when the file cannot be read or parsed.
    @discardableResult
    public func reloadCredentials() throws -> Int? {
        try authenticator?.reload()
    }

    /// Stops accepting, lets in-flight requests finish, then closes the databases.
    public func shutdown() async {
        await sweeper.stop()
        await delivery.stop()
        await http.shutdown()
        try? await threadPool.shutdownGracefully()
        engine.close()
    }
}

extension LocalDynamoServer {
    /// Whether `host` binds only this machine (`127.0.0.0/8`, `::1`, `localhost`): anything else
    /// without `--require-auth` lets every machine that reaches the port use every table.
    public static func isLoopback(host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}

/// A `--stream-target` setting that is not `TABLE=http://host[:port][/path]`.
public struct InvalidStreamTarget: Error, CustomStringConvertible {
    public var setting: String

    public init(setting: String) { self.setting = setting }

    public var description: String {
        "--stream-target takes TABLE=http://host[:port][/path]; got '\(setting)'"
    }

    /// Whether `setting` is a valid `--stream-target`.
    public static func isValid(_ setting: String) -> Bool { StreamTarget(parsing: setting) != nil }
}
