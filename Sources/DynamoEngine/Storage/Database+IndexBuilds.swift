import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
import Logging
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The background side of UpdateTable's index changes: building a new global index from the
/// table's items (backfill) and dropping a deleted one.
///
/// A backfill walks the table in storage order in chunks of `backfillChunkSize` items, each
/// chunk its own short write transaction, and pauses between chunks so the requests waiting
/// for the writer go first. Writes that happen meanwhile maintain the CREATING index like any
/// other (`ItemStore` always works with the current definition), and re-indexing an item the
/// writes already indexed finds its entry in place and leaves it, so the two never disagree and
/// the index's live statistics count each entry once.
/// Nothing about progress is persisted: a server that stops mid-build starts the build over
/// when it next opens the database, which is safe for the same reason.
///
/// The work knows its table by name and storage id (the `TableDefinition` it was started for):
/// a table deleted and created again under its name while the work is pending or retrying is
/// another table (another storage id, never reused: `StorageIDs`), and the work is abandoned.
extension Database {
    /// Items indexed per backfill transaction.
    static let backfillChunkSize = 256

    /// Where a backfill stands: after `key` in the database's contents of `generation` (see
    /// ``contentsGeneration``). A cursor is a position among those items only.
    struct BackfillCursor: Sendable {
        let key: StoredKey
        let generation: Int
    }

    /// What one backfill step did.
    enum BackfillStep: Sendable {
        /// More items remain after this position.
        case more(after: BackfillCursor)
        /// Every item is indexed and the index is ACTIVE.
        case finished
        /// The index or its table went away (deleted meanwhile): nothing left to do.
        case abandoned
    }

    /// Starts the work that indexes in a transitional state need, each on a thread of its own
    /// (SQLite calls block; they never run on the cooperative pool).
    func resumeIndexWork() {
        for definition in tables.values {
            for index in definition.globalIndexes where index.status == .creating || index.status == .deleting {
                startIndexWork(table: definition, index: index.name)
            }
            for index in definition.vectorIndexes where index.building == true {
                startIndexWork(table: definition, index: index.name)
            }
        }
    }

    /// Builds or drops the index `index` of `table` (a global index, or a vector index still
    /// building) in the background, by its current status.
    ///
    /// A failure (a full disk, an I/O error) is logged and the work is retried with a growing
    /// pause (up to a minute), as the service keeps an index CREATING or DELETING until its
    /// work is done: the index never silently stays in a transitional state.
    func startIndexWork(table: TableDefinition, index: String, attempt: Int = 1) {
        // A GCD worker (not Swift's cooperative pool): the build blocks on SQLite for its whole run.
        DispatchQueue.global(qos: .utility).async { [self] in
            do {
                try runIndexWork(table: table, index: index)
            } catch {
                let delay = Self.retryDelay(attempt: attempt)
                logger.error(
                    "index work failed; retrying",
                    metadata: [
                        "table": "\(table.name)", "index": "\(index)", "attempt": "\(attempt)",
                        "retry_in_seconds": "\(delay)", "error": "\(error)",
                    ])
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(delay)) { [self] in
                    startIndexWork(table: table, index: index, attempt: attempt + 1)
                }
            }
        }
    }

    /// Seconds before retry `attempt + 1` of failed index work: 1, 2, 4 … capped at 60.
    static func retryDelay(attempt: Int) -> Int {
        min(60, 1 << min(max(attempt - 1, 0), 6))
    }

    /// Builds or drops one index of `table` (that table, not another one created since under its
    /// name) on the calling thread, until done.
    func runIndexWork(table: TableDefinition, index: String) throws {
        guard let definition = cachedDefinition(table.name), definition.storageID == table.storageID else { return }
        if let vector = definition.vectorIndex(named: index) {
            guard vector.building == true else { return }
            try runBackfill { cursor in try vectorBackfillStep(table: definition, index: vector, after: cursor) }
            return
        }
        guard let found = definition.globalIndexes.first(where: { $0.name == index }) else { return }
        switch found.status {
        case .creating:
            try runBackfill { cursor in try backfillStep(table: definition, index: found, after: cursor) }
        case .deleting:
            try dropIndex(table: definition, index: found)
        default:
            return
        }
    }

    /// Runs a backfill's `step`s from the start until it is finished or abandoned, pausing
    /// between chunks.
    private func runBackfill(_ step: (BackfillCursor?) throws -> BackfillStep) throws {
        var cursor: BackfillCursor?
        while true {
            switch try step(cursor) {
            case .more(let after):
                cursor = after
                // Let the requests queued on the writer run before the next chunk.
                Self.pause(microseconds: 1000)
            case .finished, .abandoned:
                return
            }
        }
    }

    /// Indexes the next chunk of items after `cursor` in one write transaction; marks the index
    /// ACTIVE (in the same transaction) when the items run out. Abandoned when `table` was
    /// deleted (even if created again since) or a snapshot was restored since the cursor was
    /// handed out (even one holding the same table and index): the cursor is a position in
    /// items that are gone, and the restore started the build over.
    func backfillStep(table: TableDefinition, index building: IndexDefinition, after cursor: BackfillCursor?) throws -> BackfillStep {
        let name = table.name
        return try write { state in
            guard let (current, generation) = backfillTarget(table, after: cursor) else { return .abandoned }
            var definition = current
            guard
                let position = definition.globalIndexes.firstIndex(where: {
                    $0.name == building.name && $0.storageNumber == building.storageNumber && $0.status == .creating
                })
            else { return .abandoned }
            let items = ItemStore(table: definition, connection: state.connection)
            let rows = try items.scan(lowHash: .min, highHash: .max, after: cursor?.key, limit: Self.backfillChunkSize)
            let entries = IndexStore(
                table: definition, index: definition.globalIndexes[position],
                connection: state.connection, ledger: state.statistics)
            for row in rows {
                let item = try AttributeValue.decodeItem(bytes: row.json)
                do {
                    try entries.reindex(tableKey: row.key, item: item)
                } catch is DynamoError {
                    // An index key of the wrong type: DynamoDB leaves such an item out of the
                    // index (an index key violation) rather than failing the build.
                }
            }
            if rows.count == Self.backfillChunkSize, let last = rows.last {
                return .more(after: BackfillCursor(key: last.key, generation: generation))
            }
            definition.globalIndexes[position].status = .active
            try saveDefinition(definition, connection: state.connection, isNew: false)
            state.cacheAfterCommit(definition, named: name)
            return .finished
        }
    }

    /// Inside a backfill step's write transaction: the current definition of `table` (that
    /// table, not another created since under its name) and the contents generation, or `nil`
    /// when the step is abandoned: the table is gone, or a snapshot was restored since `cursor`
    /// was handed out.
    func backfillTarget(_ table: TableDefinition, after cursor: BackfillCursor?) -> (TableDefinition, Int)? {
        // Read under the writer's lock, which a restore holds while it bumps it.
        let generation = contentsGeneration.load(ordering: .relaxed)
        if let cursor, cursor.generation != generation { return nil }
        guard let definition = cachedDefinition(table.name), definition.storageID == table.storageID else { return nil }
        return (definition, generation)
    }

    /// Removes a DELETING index: its catalog entry, the attribute definitions only it used, and
    /// its SQLite table, in one transaction; nothing when `table` was deleted meanwhile.
    func dropIndex(table: TableDefinition, index deleting: IndexDefinition) throws {
        let name = table.name
        try write { state in
            guard var definition = cachedDefinition(name), definition.storageID == table.storageID,
                let position = definition.globalIndexes.firstIndex(where: {
                    $0.name == deleting.name && $0.storageNumber == deleting.storageNumber && $0.status == .deleting
                })
            else { return }
            let index = definition.globalIndexes.remove(at: position)
            let used = Set((definition.keyAttributes + definition.indexes.flatMap(\.keyAttributes)).map(\.name))
            definition.attributeDefinitions.removeAll { !used.contains($0.name) }
            state.connection.clearStatementCache()
            try state.connection.dropTable(named: IndexStore.name(table: definition, index: index))
            try saveDefinition(definition, connection: state.connection, isNew: false)
            state.cacheAfterCommit(definition, named: name)
        }
        invalidateStatements()
    }

    /// The store for `table` inside a write, with the table's current definition: a request
    /// that looked the table up before an index was added or removed still maintains exactly
    /// the indexes that exist when it writes.
    func itemStore(_ table: TableDefinition, connection: SQLiteConnection) -> ItemStore {
        let current = cachedDefinition(table.name).flatMap { $0.storageID == table.storageID ? $0 : nil }
        return ItemStore(table: current ?? table, connection: connection)
    }

    /// ``itemStore(_:connection:)`` for writing in the running write transaction: the store
    /// keeps the live statistics of the table's index entries as it writes them.
    ///
    /// - Throws: `ResourceNotFoundException` when the table was deleted (or deleted and created
    ///   again) since the request looked it up: its rows are gone.
    func itemStore(_ table: TableDefinition, in state: borrowing WriterState) throws(DynamoError) -> ItemStore {
        guard let current = cachedDefinition(table.name), current.storageID == table.storageID else {
            throw DynamoError.tableNotFound()
        }
        return ItemStore(table: current, connection: state.connection, ledger: state.statistics)
    }

    /// Sleeps the calling thread (a build's own worker) so queued writes get the writer.
    static func pause(microseconds: UInt32) {
        usleep(microseconds)
    }
}
