import CSQLite
import CSQLitePageCache

/// One SQLite connection with a cache of prepared statements.
///
/// `@unchecked Sendable` because a connection moves between threads but is used by one at a
/// time: `Database` hands each out under a lock (the writer's mutex or the reader pool's) and
/// SQLite is opened in multi-thread mode, which allows exactly that.
package final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The `sqlite3*` handle, for the few C calls made outside this file (the backup API).
    var rawHandle: OpaquePointer { handle }
    private var statements: [String: SQLiteStatement] = [:]
    private var keyedStatements: [StatementKey: SQLiteStatement] = [:]

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private in-memory one.
    package init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        _ = Self.pageCacheInstalled
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: status, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
    }

    /// Whether LocalDynamo's page cache layer is in place (`CSQLitePageCache`): installed once,
    /// before the process's first connection opens, so SQLite is not yet initialized. Without it
    /// an in-memory database's commits walk the whole database after some B-tree splits.
    package static let pageCacheInstalled: Bool = localdynamo_page_cache_install()

    /// The calling thread's counts of page cache truncations the layer skipped and passed on to
    /// SQLite's cache (SQLite calls the cache on the thread that runs the statement).
    package static func pageCacheTruncations() -> (skipped: UInt64, passed: UInt64) {
        var skipped: UInt64 = 0
        var passed: UInt64 = 0
        localdynamo_page_cache_thread_counts(&skipped, &passed)
        return (skipped, passed)
    }

    deinit {
        keyedStatements.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters.
    package func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(errorMessage)
            throw SQLiteError(code: status, message: message)
        }
    }

    /// A prepared statement for `sql`, reused across calls (reset and unbound).
    package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard status == SQLITE_OK, let raw else { throw lastError(status) }
        let statement = SQLiteStatement(raw: raw, connection: self)
        statements[sql] = statement
        return statement
    }

    /// A prepared statement found by a small key rather than by its SQL text, for the statements
    /// of every item read and write: building their text (it names the table) and hashing it
    /// cost more than SQLite's own lookup of the row. `sql` is called only to prepare it.
    package func statement(_ key: StatementKey, sql: () -> String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = keyedStatements[key] {
            cached.reset()
            return cached
        }
        let statement = try statement(sql())
        keyedStatements[key] = statement
        return statement
    }

    /// Drops the table `name` if it exists, after resetting every statement of the connection
    /// that is still mid-read.
    ///
    /// A cached statement that was stepped for its first row only (a `max(…)`, a lookup by key)
    /// stays active, with its read cursor open, until its next use resets it; SQLite refuses to
    /// drop a table while any statement of the connection reads ("database table is locked",
    /// `SQLITE_LOCKED`). Every drop goes through here, so no earlier read can refuse it.
    package func dropTable(named name: String) throws(SQLiteError) {
        resetActiveStatements()
        try execute("DROP TABLE IF EXISTS \(name)")
    }

    /// Resets every statement of the connection that is mid-read (stepped, not yet done or
    /// reset), cached or not. Their bindings stay: the next use binds again anyway.
    package func resetActiveStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    /// Forgets every cached statement (after a schema change that drops tables).
    package func clearStatementCache() {
        statements.removeAll()
        keyedStatements.removeAll()
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    ///
    /// The write is durable (in the WAL) once this returns: callers acknowledge only after it.
    ///
    /// `BEGIN`, `COMMIT` and `ROLLBACK` run as cached prepared statements: `execute` would
    /// compile each of them again on every transaction.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try statement("BEGIN IMMEDIATE").run()
        do {
            let result = try body()
            try statement("COMMIT").run()
            return result
        } catch {
            try? statement("ROLLBACK").run()
            throw error
        }
    }

    /// Runs `body` inside a read transaction, so every read in it sees one snapshot.
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try statement("BEGIN DEFERRED").run()
        defer { try? statement("COMMIT").run() }
        return try body()
    }

    /// Whether a transaction is open (SQLite rolls one back by itself after some errors, such as
    /// a full disk).
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    func lastError(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// The key of a statement cached with `SQLiteConnection.statement(_:sql:)`: which statement
/// (`kind`, one value per SQL text shape) for which table (`table`, e.g. a storage id) and,
/// for a statement on one of its secondary indexes, which one (`index`, its storage number;
/// 0 otherwise).
package struct StatementKey: Hashable, Sendable {
    package var kind: UInt8
    package var table: Int64
    package var index: Int

    package init(kind: UInt8, table: Int64, index: Int = 0) {
        self.kind = kind
        self.table = table
        self.index = index
    }
}
