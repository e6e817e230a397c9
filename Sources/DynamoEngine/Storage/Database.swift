import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
import Synchronization

/// One namespace's tables in one SQLite database (a file in WAL mode, or memory).
///
/// Writes go through a single writer connection under the writer's lock, each in its own
/// transaction that commits before the call returns; the item writes of requests go through the
/// namespace's writer thread instead, which commits the writes queued meanwhile together
/// (``enqueueWrite(_:completion:)``). Reads on a file database use a pool of reader connections
/// that run in parallel under WAL; an in-memory database has one connection, shared under the
/// writer's lock.
package final class Database: Sendable {
    /// The schema version this build writes; older files are migrated on open.
    package static let schemaVersion: Int64 = 6

    /// The region ARNs of this namespace name.
    package let region: String
    /// The database file, or `nil` in memory.
    package let path: String?
    /// The server's clock: every time-based behaviour of this namespace reads it.
    package let clock: ServerClock
    /// Where background work (index builds, sweeps) reports failures.
    package let logger: Logger
    /// The key of shard iterators' MACs (the engine's, shared by its namespaces).
    package let iteratorKey: ShardIteratorKey

    let writer: WriterLock
    /// The item writes of requests waiting for the writer thread (``enqueueWrite(_:completion:)``).
    let writeQueue = WriteQueue()
    /// Every table's definition and live statistics as of the last commit: what readers see
    /// (``PublishedTable``), replaced by the writer after each commit (``publishAfterCommit(_:)``).
    let catalogSnapshot: Mutex<[String: PublishedTable]>
    private let idleReaders: Mutex<[SQLiteConnection]>
    /// TransactWriteItems tokens seen in the last ten minutes.
    let idempotency = IdempotencyTokens()
    /// Transaction conflicts armed for tests (`X-LocalDynamo-Transaction-Conflicts`).
    let injectedConflicts = InjectedConflicts()
    /// Bumped (under the writer's lock) each time a restore replaces the database's contents:
    /// background work started on the old contents (an index build's position) is abandoned.
    let contentsGeneration = Atomic<Int>(0)
    /// The vector indexes' in-memory entries for searches, stale after any commit.
    let vectorCaches = VectorCaches()
    /// Whether index builds and drops run in the background (not for a database opened only to
    /// be inspected, as by `localdynamo check`, nor in tests that step them by hand).
    let runsBackgroundWork: Bool
    /// Transitional statuses held for DynamoDB Local's `-delayTransientStatuses`.
    let transientStatuses = TransientStatuses()
    /// What eventually consistent reads see (`serve --consistency`); inactive in `exact` mode.
    package let consistency = ConsistencyModel()
    /// When the writer checkpoints the write-ahead log (see `CheckpointPolicy`).
    let checkpoints = CheckpointPolicy()
    /// Page-cache hits and misses of this namespace's connections, for `/metrics`.
    let pageCache = PageCacheLedger()
    /// Export and import jobs: their object store, logger and background queue.
    package let dataJobs = DataJobs()
    /// Where Kinesis streaming destinations send change records (`--kinesis-endpoint`).
    package let kinesis = KinesisLink()
    /// The connection to the engine's replication hub (global tables).
    package let replication = ReplicationLink()

    /// What the writer's mutex guards.
    struct WriterState: ~Copyable {
        let connection: SQLiteConnection
        /// Live item and index entry counts and sizes per table, counted from the rows when first
        /// needed after the database is opened and kept by every write since.
        let statistics = StatisticsLedger()
        /// Definitions the running write changed, published to readers once it commits.
        var catalogChanges: [(name: String, definition: TableDefinition?)] = []
        /// The item changes the running write made, in order (see ``ItemChange``); handed to
        /// the change consumers before the transaction commits.
        var itemChanges: [ItemChange] = []
        /// The storage ids of the tables with vector indexes whose items the running write
        /// changed: their vector caches are stale once it commits (``VectorCaches``).
        var vectorTablesWritten: Set<Int64> = []
        /// The item changes of the running transaction the consistency model keeps once it
        /// commits (only while ``Database/consistency`` is active).
        var committedChanges: [ItemChange] = []
        /// The group of writes whose transaction is open, while the writer thread runs one:
        /// each `write { }` in it is then a savepoint of that transaction.
        var group: WriteGroup?
        /// Each streamed table's stream position as of the last committed write (see
        /// ``StreamRecordWriter``); dropped for a table whose definition changes and entirely when a
        /// write rolls back.
        var streamAppenders: [String: StreamAppender] = [:]
        /// The running write is on a thread that must not wait (an event loop, see
        /// ``writeNowIfIdle(_:)``): a checkpoint due after its commit runs on the writer thread.
        var checkpointsOnWriterThread = false

        /// Publishes `definition` (or the table's removal, `nil`) to the catalog cache when the
        /// running write transaction commits: a reader never sees a definition (a new index, an
        /// index turned ACTIVE) before the rows that go with it are visible. The live statistics
        /// follow the definition (a new index starts empty, a dropped one is forgotten).
        mutating func cacheAfterCommit(_ definition: TableDefinition?, named name: String) {
            catalogChanges.append((name, definition))
            // A stream enabled, disabled or deleted with its table: its position is read again.
            streamAppenders[name] = nil
            if let definition { statistics.align(with: definition) } else { statistics[name] = nil }
        }
    }

    /// Opens or creates a database. `path == nil` keeps it in memory.
    package init(
        path: String?, region: String, clock: ServerClock = ServerClock(),
        logger: Logger = Logger(label: "localdynamo.engine", factory: { _ in SwiftLogNoOpLogHandler() }),
        resumeBackgroundWork: Bool = true, iteratorKey: ShardIteratorKey = ShardIteratorKey()
    ) throws {
        self.path = path
        self.iteratorKey = iteratorKey
        self.clock = clock
        self.logger = logger
        self.region = region
        self.runsBackgroundWork = resumeBackgroundWork
        let connection = try SQLiteConnection(path: path ?? ":memory:")
        try Self.configure(connection, inMemory: path == nil)
        try Self.migrate(connection, clock: clock)
        let state = WriterState(connection: connection)
        catalogSnapshot = Mutex(try Self.loadPublishedCatalog(connection, into: state.statistics))
        writer = WriterLock(state)
        idleReaders = Mutex([])
        // Index builds and drops a previous run left unfinished start over (not when the
        // database is only opened to be inspected, as by `localdynamo check`).
        if resumeBackgroundWork { resumeIndexWork() }
    }

    /// Every table's definition, as the catalog table stores it.
    static func loadCatalog(_ connection: SQLiteConnection) throws -> [String: TableDefinition] {
        var tables: [String: TableDefinition] = [:]
        let statement = try connection.statement("SELECT definition FROM catalog")
        let decoder = JSONDecoder()
        while try statement.step() {
            let definition = try decoder.decode(TableDefinition.self, from: Data(statement.blob(0)))
            tables[definition.name] = definition
        }
        return tables
    }

    /// Every table's definition, with statistics not known yet: `ledger` is emptied, and each
    /// table's rows are counted when its statistics are first needed (``countedTable(_:)``,
    /// or its first write), so opening a database reads no rows, whatever its size.
    static func loadPublishedCatalog(
        _ connection: SQLiteConnection,
        into ledger: StatisticsLedger
    ) throws -> [String: PublishedTable] {
        ledger.tables = [:]
        ledger.forgetUnpublished()
        return try loadCatalog(connection).mapValues { PublishedTable(definition: $0, statistics: nil) }
    }

    /// Table `name`'s definition and live statistics as of the last commit (``PublishedTable``),
    /// its statistics counted from its rows on the writer (O(rows), under the writer's lock) when
    /// this is their first use since the database was opened; `nil` when the table does not
    /// exist. Blocking: call it off the event loops.
    func countedTable(_ name: String) throws -> PublishedTable? {
        guard let published = publishedTable(name) else { return nil }
        if published.statistics != nil { return published }
        return try writer.withLock { state in
            guard let definition = cachedDefinition(name) else { return nil }
            if let known = state.statistics.tables[name] { return PublishedTable(definition: definition, statistics: known) }
            let counted = try LiveStatistics.count(definition, connection: state.connection)
            state.statistics[name] = counted
            // Inside a transaction of this thread, the count is published with its commit (or
            // forgotten with its rollback); between transactions it is the committed state.
            if !state.connection.isInTransaction {
                catalogSnapshot.withLock { $0[name]?.statistics = counted }
            }
            return PublishedTable(definition: definition, statistics: counted)
        }
    }

    private static func configure(_ connection: SQLiteConnection, inMemory: Bool) throws {
        if !inMemory {
            // WAL: readers never block the writer. synchronous=NORMAL: a commit is in the WAL
            // (in the OS) before it returns, so a killed process loses nothing acknowledged.
            try connection.execute("PRAGMA journal_mode=WAL")
            try connection.execute("PRAGMA synchronous=NORMAL")
        }
        try connection.execute("PRAGMA foreign_keys=OFF")
    }

    static func migrate(_ connection: SQLiteConnection, clock: ServerClock = ServerClock()) throws {
        let version = try connection.statement("PRAGMA user_version")
        _ = try version.step()
        let current = version.int64(0)
        guard current <= schemaVersion else {
            throw EngineMessages.databaseWrittenByNewerLocaldynamo(current: current, schemaVersion: schemaVersion)
        }
        if current < 1 {
            try connection.transaction {
                try connection.execute(
                    """
                    CREATE TABLE IF NOT EXISTS catalog (
                        name TEXT PRIMARY KEY,
                        storage_id INTEGER NOT NULL UNIQUE,
                        definition BLOB NOT NULL
                    );
                    PRAGMA user_version = 1;
                    """)
            }
        }
        if current < 2 {
            try connection.transaction { try migrateToBackupSchema(connection) }
        }
        if current < 3 {
            try connection.transaction {
                try connection.execute(StreamCatalog.createSQL)
                try StreamCatalog.adoptStreams(connection: connection, now: clock.now())
                try connection.execute("PRAGMA user_version = 3")
            }
        }
        if current < 4 {
            try connection.transaction {
                // Schema 4: tables with TTL on get their expiry index (`ExpiryIndex`).
                for definition in try loadCatalog(connection).values where definition.expiryAttribute != nil {
                    try ExpiryIndex.rebuild(for: definition, connection: connection)
                }
                try connection.execute("PRAGMA user_version = 4")
            }
        }
        if current < 5 {
            try connection.transaction {
                // Schema 5: storage ids from a counter that never goes back (`StorageIDs`).
                try StorageIDs.migrate(connection)
                try connection.execute("PRAGMA user_version = 5")
            }
        }
        if current < 6 {
            // Schema 6: stream records are stored compact (`StoredStreamRecord`), which an older
            // build would misread; the JSON records already stored still read, so nothing is rewritten.
            try connection.execute("PRAGMA user_version = 6")
        }
    }

    // MARK: Catalog

    /// The definition of a table, named by its name or its ARN, or `ResourceNotFoundException`.
    package func table(named reference: String) throws(DynamoError) -> TableDefinition {
        let name = TableReference.name(from: reference)
        guard let definition = catalogSnapshot.withLock({ $0[name]?.definition }) else { throw DynamoError.tableNotFound() }
        return definition
    }

    /// The cached definition of a table, if it exists.
    func cachedDefinition(_ name: String) -> TableDefinition? {
        catalogSnapshot.withLock { $0[name]?.definition }
    }

    /// A table's definition and live statistics, from the same commit.
    func publishedTable(_ name: String) -> PublishedTable? {
        catalogSnapshot.withLock { $0[name] }
    }

    /// Publishes what the committed transaction changed (still under the writer's lock): the
    /// definitions it changed and the statistics of the tables it wrote, in one step, so a
    /// reader sees each table's definition with the counts of the same commit. One lock and a
    /// dictionary update per changed table; nothing when the transaction changed neither.
    func publishAfterCommit(_ state: inout WriterState) {
        // Before the write is acknowledged: a search that follows it loads what it wrote.
        if !state.catalogChanges.isEmpty { vectorCaches.invalidate() }
        if !state.vectorTablesWritten.isEmpty {
            vectorCaches.invalidate(tables: state.vectorTablesWritten)
            state.vectorTablesWritten = []
        }
        if !state.committedChanges.isEmpty {
            consistency.record(state.committedChanges, now: clock.now())
            state.committedChanges = []
        }
        let ledger = state.statistics
        guard ledger.hasUnpublished || !state.catalogChanges.isEmpty else { return }
        let changes = state.catalogChanges
        state.catalogChanges = []
        catalogSnapshot.withLock { catalog in
            for change in changes {
                catalog[change.name] = change.definition.map {
                    PublishedTable(definition: $0, statistics: ledger[change.name])
                }
            }
            ledger.publish { name, statistics in catalog[name]?.statistics = statistics }
        }
    }

    /// Every table's definition.
    package var tables: [String: TableDefinition] { catalogSnapshot.withLock { $0.mapValues(\.definition) } }

    // MARK: Access

    /// Runs `body` with a connection for reading.
    package func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if path == nil {
            return try writer.withLock { state in try body(state.connection) }
        }
        let pooled = idleReaders.withLock { $0.popLast() }
        let connection = try pooled ?? Self.openReader(path: path!)
        defer {
            connection.releaseSnapshot()
            idleReaders.withLock { $0.append(connection) }
        }
        return try body(connection)
    }

    private static func openReader(path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA query_only=1")
        return connection
    }

    /// Runs `body` in one write transaction under the writer's lock; committed when this returns.
    /// Catalog changes the body made with `cacheAfterCommit` reach the cache after the commit
    /// (still under the lock, so writers always see the current definitions); a rolled-back
    /// write publishes none.
    ///
    /// Called by a request the writer thread runs in a group, `body` runs in a savepoint of the
    /// group's transaction instead, committed with the group (see ``enqueueWrite(_:completion:)``).
    func write<T: Sendable>(_ body: (inout WriterState) throws -> T) throws -> T {
        try writer.withLock { state in
            if state.group != nil { return try writeInGroup(&state, body) }
            let connection = state.connection
            state.catalogChanges = []
            state.itemChanges = []
            defer { state.itemChanges = [] }
            // A write that fails (a full disk at COMMIT, a later action of a batch) rolls back
            // its rows; the live counts it changed go back with them.
            let statisticsBefore = state.statistics.tables
            let result: T
            do {
                result = try connection.transaction {
                    let result = try body(&state)
                    try consumeItemChanges(&state)
                    return result
                }
            } catch {
                state.statistics.tables = statisticsBefore
                state.streamAppenders = [:]
                state.committedChanges = []
                throw error
            }
            publishAfterCommit(&state)
            checkpointIfLogIsLarge(state)
            return result
        }
    }

    /// Forgets cached statements on every connection after a table was dropped.
    func invalidateStatements() {
        let dropped = idleReaders.withLock { readers in
            defer { readers.removeAll() }
            return readers
        }
        pageCache.retire(dropped)
    }

    /// Page-cache hits and misses of every connection of this namespace since it was opened
    /// (the writer and the idle readers now; a reader busy at this moment at the next call).
    /// Takes the writer's lock for a moment.
    package func pageCacheCounts() -> PageCacheCounts {
        let readers = idleReaders.withLock { $0 }
        let writerConnection = writer.withLock { $0.connection }
        return pageCache.collect([writerConnection] + readers)
    }
}
