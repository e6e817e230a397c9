/// Where each operation's engine call runs: the event-loop policy of docs/architecture.md
/// ("Dispatch"), written once. `EngineDispatcher` follows it on every path.
///
/// The rule: an event loop serves every connection assigned to it, so it only runs work that is
/// bounded and never waits for a write — point reads and a page of reads under WAL, lookups in
/// memory (measured cheaper than a hop to another thread). Item writes to a database on disk go
/// to the namespace's writer thread, which commits the writes queued meanwhile together and
/// answers each only after its commit (`Database.enqueueWrite`); in memory, where a commit does
/// no I/O, an item write is as bounded as the reads beside it and runs on the loop under the
/// same lock. Everything else — scans, table and index work, backups,
/// exports, PartiQL other than a SELECT by key, DynamoDB Streams reads — runs on the request thread pool.
enum DispatchPolicy {
    /// Where an engine call runs.
    enum Placement: Sendable, Equatable {
        /// Right on the connection's event loop, answered synchronously.
        case eventLoop
        /// Tried on the event loop; an operation that finds, before it touches an item, that it
        /// reads more than one (`Database.PartiQLReadsMoreThanOneItem`), or a DescribeTable that
        /// finds its table's statistics not counted yet (`Database.StatisticsNotCounted`), is
        /// handed back to the pool.
        /// A hand-back runs the operation's preparation twice, so a request that arms something
        /// once per run (injected transaction conflicts) goes to the pool directly.
        case eventLoopUnlessHandedBack
        /// On the namespace's writer thread, in a group commit (a database on disk; see
        /// ``placement(of:inMemory:)``).
        case writer
        /// On the request thread pool.
        case pool
    }

    /// The DynamoDB operations that do not run on the pool.
    static let placements: [String: Placement] = [
        // Bounded reads: one item, a few (100 at most), or one page of at most 1 MB.
        "GetItem": .eventLoop, "BatchGetItem": .eventLoop, "TransactGetItems": .eventLoop, "Query": .eventLoop,
        // Answers from the catalog in memory.
        "ListTables": .eventLoop, "DescribeTimeToLive": .eventLoop,
        "ListTagsOfResource": .eventLoop, "DescribeEndpoints": .eventLoop, "DescribeLimits": .eventLoop,
        "DescribeContinuousBackups": .eventLoop,
        // Tried on the loop as a SELECT of one item by its whole key; any other statement is
        // handed back before it touches an item (`PartiQLReadsMoreThanOneItem`) and runs on the pool.
        "ExecuteStatement": .eventLoopUnlessHandedBack,
        // From memory, except the first time after the database was opened, when the table's
        // rows are counted: handed back (`Database.StatisticsNotCounted`) to run on the pool.
        "DescribeTable": .eventLoopUnlessHandedBack,
        // Item writes.
        "PutItem": .writer, "UpdateItem": .writer, "DeleteItem": .writer, "BatchWriteItem": .writer,
        "TransactWriteItems": .writer,
    ]

    /// Where `target`'s engine call runs; the pool unless ``placements`` says otherwise.
    ///
    /// `inMemory`: the engine keeps its databases in memory. An item write then runs where a
    /// read runs, on the loop: its commit does no I/O, so there is nothing for a group to share,
    /// and the hop to the writer thread and back cost more than the write itself (PutItem
    /// 128 → 92 µs of CPU at one connection, the 80/20 mix 35% → 53% of the ceiling; see
    /// docs/performance.md). Its work is bounded as a read's is: one item, or at most 25 (a
    /// batch) or 100 (a transaction).
    static func placement(of target: DynamoTarget, inMemory: Bool = false) -> Placement {
        guard target.service == .dynamoDB else { return .pool }
        let placement = placements[target.operation] ?? .pool
        return placement == .writer && inMemory ? .eventLoop : placement
    }
}
