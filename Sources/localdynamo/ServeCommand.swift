import ArgumentParser
import DynamoAPI
import DynamoServer
import Dispatch
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `localdynamo serve`: listens for DynamoDB requests until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the DynamoDB API over HTTP.",
        discussion: """
            Tables are grouped by region by default, as one AWS account sees DynamoDB: a client \
            signing for us-east-1 and one signing for eu-west-1 see different tables, whatever \
            their access keys. --shared-db puts every request in one set of tables; \
            --per-access-key separates them by access key id and region (DynamoDB Local's default).

            Every flag can also be set by an environment variable LOCALDYNAMO_<FLAG> (--db-path: \
            LOCALDYNAMO_DB_PATH; a flag without a value takes 1 or 0; repeatable ones take values \
            separated by ';' or newlines); the command line wins.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port (the startup line prints it).")
    var port = 8000

    @Option(
        name: .customLong("db-path"),
        help: "Directory for the database files (created if missing); DynamoDB Local's files found there are migrated first.")
    var dbPath = ".localdynamo"

    @Flag(name: .customLong("in-memory"), help: "Keep everything in memory; nothing is written to disk.")
    var inMemory = false

    @Flag(name: .customLong("shared-db"), help: "One set of tables for every region and access key.")
    var sharedDB = false

    @Flag(name: .customLong("per-access-key"), help: "One set of tables per access key id and region.")
    var perAccessKey = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(
        name: .customLong("transaction-conflicts"),
        help: ArgumentHelp(
            "Make the next N writes to TABLE conflict as if another transaction held its items (repeatable).",
            valueName: "TABLE=N"))
    var transactionConflicts: [String] = []

    @Option(
        name: .customLong("clock-start"),
        help: ArgumentHelp(
            "Start the server's clock at this time (seconds since 1970) instead of now; it ticks from there.",
            valueName: "EPOCH_SECONDS"))
    var clockStart: Double?

    @Option(
        name: .customLong("s3-dir"),
        help: ArgumentHelp(
            "A directory that stands in for S3 in exports and imports: s3://BUCKET/PREFIX is DIR/BUCKET/PREFIX (a bucket is a subdirectory that must exist).",
            valueName: "DIR"))
    var s3Directory: String?

    @OptionGroup(title: "AWS services beside it") var neighbours: NeighbourFlags
    @OptionGroup(title: "Consistency") var consistency: ConsistencyFlags

    @Option(
        name: .customLong("ttl-interval"),
        help: ArgumentHelp(
            "Run the TTL sweeper every SECONDS (expiry is judged on the server's clock); 0 disables it.",
            valueName: "SECONDS"))
    var ttlInterval: Double = 5

    @Option(
        name: .customLong("stream-target"),
        help: ArgumentHelp(
            "Post TABLE's stream records to URL as AWS Lambda events ({\"Records\": [...]}), in order, retrying failures (repeatable).",
            valueName: "TABLE=URL"))
    var streamTargets: [String] = []

    @Option(name: .customLong("stream-batch-size"), help: "The most records in one --stream-target event (1...1000).")
    var streamBatchSize = 100

    @Flag(
        name: .customLong("admin-from-anywhere"),
        help: "Answer the admin API (/_localdynamo/...) for callers that are not on loopback.")
    var adminFromAnywhere = false

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Inject a fault (repeatable): table=T,operation=Op,error=InternalServerError,rate=0.1 (also latency-ms=N, count=N, message=TEXT last).",
            valueName: "SPEC"))
    var faults: [String] = []

    @Option(name: .customLong("fault-seed"), help: "Seed of the faults' random draws, so a run is reproducible.")
    var faultSeed: UInt64 = 0

    // Fixtures (issue 18): --seed DIR creates NAME.table.json's tables and loads NAME.items.json[l].
    @Option(
        name: .customLong("seed"),
        help: ArgumentHelp(
            "Create the tables described in DIR at start and load their items (NAME.table.json, NAME.items.jsonl, NAME.items.json); existing tables are left as they are.",
            valueName: "DIR"))
    var seed: String?

    @Option(name: .customLong("seed-region"), help: "The region (namespace) --seed creates its tables in.")
    var seedRegion = "us-east-1"

    // Authentication and throttling (see README's "Authentication" and "Throttling").
    @Flag(
        name: .customLong("require-auth"),
        help: "Verify every request's SigV4 signature (admin API included) against the identities of --credentials.")
    var requireAuth = false

    @Option(
        name: .customLong("credentials"),
        help: ArgumentHelp(
            "The accepted identities, in the AWS shared-credentials format ([name] sections with aws_access_key_id, aws_secret_access_key, optional aws_session_token); re-read on SIGHUP.",
            valueName: "FILE"))
    var credentialsFile: String?

    @Option(
        name: .customLong("clock-skew"),
        help: ArgumentHelp("How far a signed request's time may be from the server clock (DynamoDB: 900).", valueName: "SECONDS"))
    var clockSkew: Double = 900

    @Flag(
        name: .customLong("throttle"),
        help: "Throttle tables at their capacity as DynamoDB does: provisioned RCU/WCU with burst capacity, on-demand table limits.")
    var throttle = false

    @Option(
        name: .customLong("error-wording"),
        help: ArgumentHelp(
            "2026: ValidationException messages as DynamoDB words them since its 2026 rollout (the default); "
                + "2025: as regions answered before it (docs/compatibility.md lists both).",
            valueName: "2025|2026"))
    var errorWording: ErrorWording = .default

    // Hostile clients and durability (docs/reliability.md).
    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp(
            "Close a connection whose request is not complete SECONDS after its first byte (slowloris, stalled uploads); 0: no limit.",
            valueName: "SECONDS"))
    var requestTimeout: Double = 60

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp("Close a keep-alive connection idle this long between requests; 0: no limit.", valueName: "SECONDS"))
    var idleTimeout: Double = 120

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "The most connections open at once; one more is closed at once (0: no limit but file descriptors).",
            valueName: "N"))
    var maxConnections = 10_000

    @Option(
        name: .customLong("sync"),
        help: "full: sync the WAL at every commit (survives power loss); normal: only at checkpoints (survives a killed process, the default).")
    var sync: SyncSetting = .normal

    /// `--transaction-conflicts` as table → count.
    var conflictCounts: [String: Int] {
        get throws {
            var counts: [String: Int] = [:]
            for setting in transactionConflicts {
                let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, let count = Int(parts[1]), count >= 0 else {
                    throw ValidationError("--transaction-conflicts takes TABLE=N with N >= 0; got '\(setting)'.")
                }
                counts[parts[0]] = count
            }
            return counts
        }
    }

    func validate() throws {
        if sharedDB && perAccessKey {
            throw ValidationError("--shared-db and --per-access-key cannot be used together.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("Unknown log level '\(logLevel)'.")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("Port must be between 0 and 65535.")
        }
        _ = try conflictCounts
        for fault in faults {
            do { _ = try FaultInjector.Rule(spec: fault) } catch { throw ValidationError("--fault '\(fault)': \(error)") }
        }
        if let clockStart, !clockStart.isFinite || clockStart < 0 {
            throw ValidationError("--clock-start takes seconds since 1970 (a number >= 0).")
        }
        for target in streamTargets where !InvalidStreamTarget.isValid(target) {
            throw ValidationError(InvalidStreamTarget(setting: target).description + ".")
        }
        guard (1...1000).contains(streamBatchSize) else {
            throw ValidationError("--stream-batch-size takes a number from 1 to 1000.")
        }
        if requireAuth != (credentialsFile != nil) {
            throw ValidationError("--require-auth and --credentials FILE go together.")
        }
        if !clockSkew.isFinite || clockSkew < 0 {
            throw ValidationError("--clock-skew takes a number of seconds >= 0.")
        }
        try validateReliabilityFlags()
        if !ttlInterval.isFinite || ttlInterval < 0 {
            throw ValidationError("--ttl-interval takes a number of seconds >= 0 (0 disables the sweeper).")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "localdynamo")
        let namespace: LocalDynamoServer.Namespace =
            sharedDB ? .shared : perAccessKey ? .perAccessKey : .perRegion
        if !inMemory { try DataDirectoryMigration.migrate(directory: dbPath, namespace: namespace, logger: logger) }
        var configuration = LocalDynamoServer.Configuration(
            host: host, port: port, dataDirectory: inMemory ? nil : dbPath, namespace: namespace,
            transactionConflicts: try conflictCounts, clockStart: clockStart, adminFromAnywhere: adminFromAnywhere,
            faults: faults, faultSeed: faultSeed, s3Directory: s3Directory)
        configuration.ttlSweepInterval = ttlInterval
        configuration.streamTargets = streamTargets
        configuration.streamBatchSize = streamBatchSize
        configuration.neighbours = neighbours.options
        configuration.consistency = consistency.options
        applyReliabilityFlags(to: &configuration)
        configuration.credentialsFile = credentialsFile
        configuration.allowedClockSkew = clockSkew
        configuration.throttle = throttle
        configuration.errorWording = errorWording
        if !requireAuth, !LocalDynamoServer.isLoopback(host: host) {
            Self.writeToStandardOutput(
                "warning: listening on \(host) without --require-auth: anyone who can reach "
                    + "this port can read, change and delete every table (any signature is accepted)\n", descriptor: 2)
        }
        let seeding = try seed.map { try ServeSeeding(directory: $0) }
        let server = try LocalDynamoServer(configuration: configuration, logger: logger)
        let reloads = requireAuth ? CredentialsReloader(server: server, logger: logger) : nil
        defer { reloads?.cancel() }
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        let boundPort = try await server.start()
        do { try await seeding?.run(port: boundPort, region: seedRegion) } catch {
            await server.shutdown()
            throw error
        }
        let storage = inMemory ? "in memory" : "in \(dbPath)"
        let grouping =
            switch namespace {
            case .perRegion: "tables per region"
            case .perAccessKey: "tables per access key and region"
            case .shared: "one shared set of tables"
            }
        // Unbuffered, so a parent process reading the pipe sees it at once.
        let line = "localdynamo \(LocalDynamoVersion.current) listening on http://\(host):\(boundPort) (\(grouping), \(storage))\n"
        Self.writeToStandardOutput(line)
        let received = await signals.next()
        logger.info("received signal \(received), shutting down")
        await server.shutdown()
    }

    /// Writes straight to file descriptor 1, or `descriptor` (no stdio buffer to flush).
    static func writeToStandardOutput(_ text: String, descriptor: Int32 = 1) { writeAll(text, to: descriptor) }

    /// Writes straight to file descriptor 2.
    static func writeToStandardError(_ text: String) { writeAll(text, to: 2) }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
