import Synchronization

/// A copy of one namespace's database, held in memory, to restore later (the admin API's
/// snapshots: seed once, restore before each test).
package final class DatabaseSnapshot: Sendable {
    /// The copy; one restore at a time reads it.
    private let copy: Mutex<SQLiteConnection>
    /// The tables it holds.
    package let tables: [String]

    init(copy: SQLiteConnection, tables: [String]) {
        self.copy = Mutex(copy)
        self.tables = tables
    }

    /// A snapshot of a database with no tables.
    static func empty() throws -> DatabaseSnapshot {
        let connection = try SQLiteConnection(path: ":memory:")
        try Database.migrate(connection)
        return DatabaseSnapshot(copy: connection, tables: [])
    }

    func copy(into destination: SQLiteConnection) throws {
        try copy.withLock { connection in try connection.copyDatabase(into: destination) }
    }
}

extension Database {
    /// Copies the whole database (tables, items, indexes, settings) into memory, under the
    /// writer's lock: a consistent state between two writes. Costs a page copy: milliseconds
    /// for a test-sized database.
    package func takeSnapshot() throws -> DatabaseSnapshot {
        try writer.withLock { state in
            let copy = try SQLiteConnection(path: ":memory:")
            try state.connection.copyDatabase(into: copy)
            return DatabaseSnapshot(copy: copy, tables: catalogSnapshot.withLock { $0.keys.sorted() })
        }
    }

    /// Replaces the whole database by `snapshot`'s copy, under the writer's lock: requests see
    /// the old state or the new one, never a mix. Cached definitions, live statistics, stream
    /// positions, cached statements, pooled readers and TransactWriteItems tokens are reset with
    /// it; index builds the snapshot caught mid-way start over, and builds running on the
    /// replaced contents stop at their next step.
    package func restore(_ snapshot: DatabaseSnapshot) throws {
        try writer.withLock { state in
            contentsGeneration.add(1, ordering: .relaxed)
            vectorCaches.invalidate()
            // The versions kept are of the contents replaced: a read sees the snapshot's at once.
            consistency.settle(now: clock.now())
            state.connection.clearStatementCache()
            let nextStorageID = try StorageIDs.next(state.connection)
            try snapshot.copy(into: state.connection)
            // Ids given since the snapshot was taken stay used (work started on them may run).
            try StorageIDs.raise(to: nextStorageID, state.connection)
            state.streamAppenders = [:]
            let tables = try Self.loadPublishedCatalog(state.connection, into: state.statistics)
            catalogSnapshot.withLock { $0 = tables }
        }
        invalidateStatements()
        idempotency.removeAll()
        if runsBackgroundWork { resumeIndexWork() }
    }
}
