import CSQLite

extension SQLiteConnection {
    /// Copies this connection's whole main database into `destination`'s, replacing its content
    /// (SQLite's online backup API, in one step). Neither connection may be inside a transaction.
    ///
    /// - Throws: `SQLiteError` when the copy cannot start or finish (for example when the
    ///   destination is busy).
    package func copyDatabase(into destination: SQLiteConnection) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(destination.rawHandle, "main", rawHandle, "main") else {
            throw destination.lastError(sqlite3_errcode(destination.rawHandle))
        }
        let status = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else { throw destination.lastError(status) }
        guard finish == SQLITE_OK else { throw destination.lastError(finish) }
    }
}
