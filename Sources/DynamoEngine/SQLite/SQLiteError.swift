import CSQLite

/// A failed SQLite call: the result code and SQLite's own message.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    package var code: Int32
    package var message: String

    package var description: String { "SQLite error \(code): \(message)" }

    /// Whether another connection held a lock the call needed (`SQLITE_BUSY`, with its extended
    /// codes): the call may succeed if tried again once that connection is done (each connection
    /// already waits up to 5 s, `sqlite3_busy_timeout`).
    ///
    /// Not `SQLITE_LOCKED`: that is a conflict inside one connection (or its shared cache), such
    /// as dropping a table while a statement of the same connection still reads it, which
    /// waiting does not resolve; see ``isLocked``.
    package var isBusy: Bool { code & 0xFF == SQLITE_BUSY }

    /// Whether the call conflicted with the same connection's own work (`SQLITE_LOCKED`): a
    /// programming error to report (an internal error with its log line), not to retry.
    package var isLocked: Bool { code & 0xFF == SQLITE_LOCKED }
}
