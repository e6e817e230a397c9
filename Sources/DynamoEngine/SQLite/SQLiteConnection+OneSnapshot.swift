extension SQLiteConnection {
    /// Runs `body`, a read of one or more statements run one after another, in one snapshot,
    /// with an explicit read transaction only when a second statement runs.
    ///
    /// `body` calls `beforeStatement` before each of its statements. The first runs in SQLite's
    /// own read transaction, which lasts while the statement is active: a read that is done
    /// after one statement (a Query page of one batch, the common case) costs no `BEGIN` and
    /// `COMMIT`. Before a second statement, `BEGIN` turns that transaction into an explicit one
    /// while the first statement still holds its snapshot, so the first statement must not
    /// have been stepped to its end when another follows (a Query batch that filled stops
    /// stepping at its last row; one that did not fill ends the read). Statements still active
    /// at the end are reset, so the connection holds no snapshot after this returns.
    package func readInOneSnapshot<T>(_ body: (_ beforeStatement: () throws -> Void) throws -> T) throws -> T {
        var statements = 0
        var began = false
        defer {
            resetActiveStatements()
            if began { try? statement("COMMIT").run() }
        }
        return try body {
            statements += 1
            if statements == 2, !isInTransaction {
                try statement("BEGIN DEFERRED").run()
                began = true
            }
        }
    }
}
