@testable import DynamoEngine
import Testing

/// `SQLiteConnection`'s drops: a statement left mid-read must not refuse them.
@Suite struct SQLiteConnectionTests {
    /// A connection with table `t` of three rows and a cached statement stepped for its first
    /// row only (as the engine's one-row reads leave theirs until their next use).
    static func connectionReadingMidway() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let reading = try connection.statement("SELECT x FROM t")
        #expect(try reading.step())
        return connection
    }

    @Test("SQLite itself refuses a DROP TABLE while a statement of the connection reads (the cause)")
    func plainDropIsRefused() throws {
        let connection = try Self.connectionReadingMidway()
        let error = try #require(throws: SQLiteError.self) { try connection.execute("DROP TABLE t") }
        #expect(error.code & 0xFF == 6) // SQLITE_LOCKED
        #expect(error.message == "database table is locked")
        // A conflict within the connection: waiting for another one would not end it.
        #expect(error.isLocked && !error.isBusy)
    }

    @Test("only SQLITE_BUSY (another connection's lock) counts as busy")
    func busyIsBusyOnly() throws {
        // SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT; SQLITE_LOCKED, SQLITE_LOCKED_SHAREDCACHE.
        #expect(SQLiteError(code: 5, message: "").isBusy && SQLiteError(code: 517, message: "").isBusy)
        #expect(!SQLiteError(code: 6, message: "").isBusy && !SQLiteError(code: 262, message: "").isBusy)
        #expect(SQLiteError(code: 262, message: "").isLocked && !SQLiteError(code: 5, message: "").isLocked)
    }

    @Test("dropTable resets the statements still reading and drops the table")
    func dropTableResetsReaders() throws {
        let connection = try Self.connectionReadingMidway()
        try connection.dropTable(named: "t")
        try connection.dropTable(named: "t") // IF EXISTS: a second drop is no error
        let count = try connection.statement("SELECT count(*) FROM sqlite_schema WHERE name = 't'")
        #expect(try count.step())
        #expect(count.int64(0) == 0)
    }

    @Test("a statement reset by a drop runs again from its first row on its next use")
    func resetStatementIsReusable() throws {
        let connection = try Self.connectionReadingMidway()
        try connection.execute("CREATE TABLE other (y INTEGER)")
        try connection.dropTable(named: "other")
        let again = try connection.statement("SELECT x FROM t")
        var rows: [Int64] = []
        while try again.step() { rows.append(again.int64(0)) }
        #expect(rows == [1, 2, 3])
    }
}
