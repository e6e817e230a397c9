import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
import Synchronization

/// Where the engine keeps its databases.
package enum StorageLocation: Sendable, Equatable {
    /// Nothing on disk; everything is lost when the process ends.
    case inMemory
    /// One SQLite file per namespace in this directory (created if missing).
    case directory(String)
}

/// How requests are grouped into separate sets of tables.
package enum NamespaceMode: String, Sendable, CaseIterable {
    /// One set of tables per region, as one AWS account sees DynamoDB (the default).
    case perRegion = "per-region"
    /// One set per access key id and region (DynamoDB Local's default).
    case perAccessKey = "per-access-key"
    /// One set for every request, whatever its region or key (DynamoDB Local's `-sharedDb`).
    case shared
}

/// The database engine: resolves a request's namespace to its `Database`, opening it on first use.
package final class DynamoEngine: Sendable {
    package let storage: StorageLocation
    package let namespaceMode: NamespaceMode
    /// Transaction conflicts armed in every namespace when its database opens (`serve
    /// --transaction-conflicts TABLE=N`): table name and count.
    package let transactionConflicts: [(table: String, count: Int)]
    /// The server's one clock, shared by every namespace's database.
    package let clock: ServerClock
    /// Seconds transitional statuses stay visible in every namespace (DynamoDB Local's
    /// `-delayTransientStatuses`); `0` holds none.
    package let transientStatusDelay: Double
    /// Named snapshots of namespaces (the admin API's `/_localdynamo/snapshots`).
    package let snapshots = SnapshotRegistry()
    /// Where exports write and imports read (`serve --s3-dir` or `--s3-endpoint`); `nil` fails them.
    package let objectStore: (any ObjectStore)?
    /// Where Kinesis streaming destinations send records (`serve --kinesis-endpoint`); `nil`
    /// keeps destinations as states only.
    package let kinesisSink: (any KinesisRecordSink)?
    /// Delivers global tables' changes between this engine's namespaces.
    package let replicationHub: ReplicationHub
    /// Counters for `/metrics` (TTL deletions).
    package let counters = EngineCounters()
    /// The key of every namespace's shard-iterator MACs, drawn at random when the engine starts.
    package let iteratorKey = ShardIteratorKey()
    private let databases = Mutex<[String: Database]>([:])
    private let logger: Logger
    /// How hard commits wait for the disk (`serve --sync`).
    package let syncMode: SyncMode
    /// The consistency model namespaces open with (`serve --consistency`), and overrides.
    let consistencyDefaults: Mutex<ConsistencyDefaults>

    package init(
        storage: StorageLocation, namespaceMode: NamespaceMode, logger: Logger,
        transactionConflicts: [(table: String, count: Int)] = [],
        clock: ServerClock = ServerClock(), transientStatusDelay: Double = 0,
        objectStore: (any ObjectStore)? = nil, kinesisSink: (any KinesisRecordSink)? = nil,
        syncMode: SyncMode = .normal, consistency: ConsistencySettings = .exact
    ) throws {
        self.syncMode = syncMode
        consistencyDefaults = Mutex(ConsistencyDefaults(server: consistency))
        self.clock = clock
        self.kinesisSink = kinesisSink
        self.transientStatusDelay = transientStatusDelay
        self.objectStore = objectStore
        self.storage = storage
        self.namespaceMode = namespaceMode
        self.logger = logger
        self.transactionConflicts = transactionConflicts
        replicationHub = ReplicationHub(namespaceMode: namespaceMode, logger: logger)
        if case .directory(let path) = storage {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        replicationHub.resolve { [weak self] accessKeyID, region in
            guard let self else { throw EngineMessages.engineShutDown }
            return try self.database(accessKeyID: accessKeyID, region: region)
        }
    }

    /// The database for a request signed with `accessKeyID` in `region`.
    package func database(accessKeyID: String?, region: String?) throws -> Database {
        let region = region ?? "us-east-1"
        let name: String
        switch namespaceMode {
        case .perRegion: name = region
        case .perAccessKey: name = "\(accessKeyID ?? "anonymous")_\(region)"
        case .shared: name = "shared-local-instance"
        }
        return try databases.withLock { open in
            if let database = open[name] { return database }
            let path: String?
            switch storage {
            case .inMemory: path = nil
            case .directory(let directory): path = Self.databasePath(directory: directory, namespace: name)
            }
            let database = try Database(path: path, region: region, clock: clock, logger: logger, iteratorKey: iteratorKey)
            try database.apply(syncMode)
            database.transientStatuses.delay = transientStatusDelay
            configureConsistency(of: database, namespace: name)
            // Stream records and expiries from before the last settle are due at once.
            _ = database.consistency.settle(now: consistencyDefaults.withLock { $0.settledAt })
            database.dataJobs.configure(objectStore: objectStore?.forRegion(region), logger: logger)
            database.kinesis.sink = kinesisSink
            database.replication.attach(to: replicationHub, accessKeyID: namespaceMode == .perAccessKey ? accessKeyID : nil)
            for (table, count) in transactionConflicts {
                database.injectTransactionConflicts(table: table, count: count)
            }
            open[name] = database
            logger.debug("opened database", metadata: ["namespace": "\(name)"])
            return database
        }
    }

    /// The file that holds a namespace's database in `directory`: `<namespace>.db`, unless that
    /// name holds one of DynamoDB Local's own files (its data directory served in place), then
    /// `<namespace>.localdynamo.db` beside it (see `DynamoDBLocalImport`).
    package static func databasePath(directory: String, namespace: String) -> String {
        let base = "\(directory)/\(fileName(for: namespace))"
        let plain = base + ".db"
        guard FileManager.default.fileExists(atPath: plain),
            (try? DynamoDBLocalFile.kind(of: plain)) == .dynamoDBLocal
        else { return plain }
        return base + ".localdynamo.db"
    }

    /// A file name safe on every file system for a namespace: letters, digits, `-` and `_`
    /// only (so no `/`, `..`, NUL or leading dot can leave the data directory, whatever an access
    /// key holds), and at most 200 bytes: a longer name keeps its first 100 bytes of characters and adds
    /// a hash of the whole name.
    static func fileName(for namespace: String) -> String {
        let safe = String(
            namespace.unicodeScalars.map { scalar in
                Self.isAlphanumeric(scalar) || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
            })
        guard safe.utf8.count > 200 else { return safe }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a, stable across runs and platforms
        for byte in namespace.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var prefix = ""
        for character in safe {
            guard prefix.utf8.count + character.utf8.count <= 100 else { break }
            prefix.append(character)
        }
        return prefix + "-" + String(hash, radix: 16)
    }

    /// Letters, marks and digits of any script (what Foundation's `CharacterSet.alphanumerics` holds).
    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }

    /// Every database opened so far, by namespace name.
    package var openDatabases: [String: Database] { databases.withLock { $0 } }

    /// Closes every database (their connections close when released); running bulk puts stop
    /// before their next batch.
    package func close() {
        let closed = databases.withLock { databases in
            defer { databases.removeAll() }
            return Array(databases.values)
        }
        for database in closed { database.dataJobs.stopBulkJobs() }
    }
}
