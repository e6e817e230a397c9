/// The storage ids of a database's tables (`items_<id>`, `index_<id>_…`, `ttl_<id>`, the PITR
/// log's rows): each new table gets one never given before in this file, from a counter that
/// only grows and is stored in the file (`storage_ids`, schema 5).
///
/// Never reused because much checks a table's identity by its storage id: background work
/// started on a table (index builds and drops, TTL sweeps, exports, point-in-time restores)
/// stops when the table of that name has another id, so a table deleted and created again
/// under its name must not get the deleted one's id.
enum StorageIDs {
    /// Creates the counter (inside the migration's transaction), starting above every id the
    /// file still holds: the catalog's and the PITR log's.
    static func migrate(_ connection: SQLiteConnection) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS storage_ids (next INTEGER NOT NULL);
            DELETE FROM storage_ids;
            INSERT INTO storage_ids (next) SELECT max(
                coalesce((SELECT max(storage_id) FROM catalog), 0),
                coalesce((SELECT max(storage_id) FROM pitr_log), 0)) + 1;
            """)
    }

    /// The next storage id, taken (inside the caller's write transaction).
    static func allocate(_ connection: SQLiteConnection) throws -> Int64 {
        guard let id = try read(connection) else { throw SQLiteError(code: 1, message: "storage_ids is empty") }
        try connection.statement("UPDATE storage_ids SET next = ?").bind(.integer(id + 1)).run()
        return id
    }

    /// The counter's value, to carry over a whole-database replacement (``raise(to:_:)``).
    static func next(_ connection: SQLiteConnection) throws -> Int64 {
        try read(connection) ?? 1
    }

    /// The counter, with its statement reset at once: a statement left mid-read would keep a
    /// read open (refusing a DROP TABLE or a snapshot copied over the database).
    private static func read(_ connection: SQLiteConnection) throws -> Int64? {
        let statement = try connection.statement("SELECT next FROM storage_ids")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Raises the counter to at least `next`: a snapshot restored over the database brings its
    /// older counter, and ids given since must stay unused.
    static func raise(to next: Int64, _ connection: SQLiteConnection) throws {
        try connection.statement("UPDATE storage_ids SET next = max(next, ?)").bind(.integer(next)).run()
    }
}
