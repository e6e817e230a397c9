import CSQLite

extension SQLiteConnection {
    /// Resets every statement of this connection stopped before its last row (a point read
    /// that took one row and left), so the connection no longer holds a read snapshot.
    ///
    /// A statement left mid-result keeps its read transaction open, and in WAL mode one open
    /// snapshot on an idle pooled connection stops every checkpoint at its frame: the log then
    /// grows for as long as the server runs. Called when a connection goes back to the pool.
    package func releaseSnapshot() {
        var next = sqlite3_next_stmt(rawHandle, nil)
        while let statement = next {
            if sqlite3_stmt_busy(statement) != 0 { sqlite3_reset(statement) }
            next = sqlite3_next_stmt(rawHandle, statement)
        }
    }
}
