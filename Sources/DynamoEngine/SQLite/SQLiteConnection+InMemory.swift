import CSQLite

extension SQLiteConnection {
    /// The URI of a namespace's in-memory database: a private file of SQLite's `memdb` VFS (its
    /// name does not start with `/`, so no other connection can open it).
    static let inMemoryURI = "file:localdynamo?vfs=memdb"

    /// Opens a private in-memory database whose page cache is bounded like a file's
    /// (`cache_size`), rather than SQLite's `:memory:`, whose page cache *is* the database.
    ///
    /// Why (issue #14): when a B-tree split gives its new pages ascending numbers, SQLite 3.40
    /// swaps two of them through the page number of the lock byte (262,145 with 4 KiB pages),
    /// which raises the page cache's highest key to that number; the next commit then truncates
    /// the cache to the database's size and, the key being far above it, walks every slot of
    /// the cache's hash table and every page on it. With `:memory:` that is every page of the
    /// database, on about one commit in five of a table that grows at random keys: after
    /// 100,000 PutItems, 36,000 (plain) to 50,000 (streamed, whose records double the pages)
    /// instructions per PutItem, growing with the whole database. A `memdb` file keeps the
    /// pages in one buffer of its own and the cache holds at most `cache_size` of them (SQLite's
    /// default, as on disk), so the walk is bounded; a page not in the cache is a copy out of
    /// the buffer, and a commit copies its pages into it.
    ///
    /// `memdb` files are limited to 1 GiB unless told otherwise; this one is not limited
    /// (``inMemorySizeLimit``), as `:memory:` is not.
    static func inMemory() throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: inMemoryURI)
        var limit = Int64.max
        let status = sqlite3_file_control(connection.rawHandle, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit)
        guard status == SQLITE_OK else { throw connection.lastError(status) }
        return connection
    }

    /// The size an in-memory database (``inMemory()``) may grow to, in bytes; `nil` for a
    /// database that is not a `memdb` file.
    var inMemorySizeLimit: Int64? {
        var limit: Int64 = -1
        return sqlite3_file_control(rawHandle, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit) == SQLITE_OK ? limit : nil
    }

    /// Bytes of heap the connection's page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    var pageCacheBytes: Int {
        var current: Int32 = 0, highWater: Int32 = 0
        return sqlite3_db_status(rawHandle, SQLITE_DBSTATUS_CACHE_USED, &current, &highWater, 0) == SQLITE_OK
            ? Int(current) : 0
    }
}
