@testable import DynamoEngine
import Testing

/// `SQLiteConnection.readInOneSnapshot`: a read of several statements sees one snapshot, and a
/// read of one statement opens no transaction of its own.
@Suite struct OneSnapshotReadTests {
    /// A writer in WAL mode and a second connection, on a fresh file with table `t` of rows 1...5.
    static func withConnections(_ body: (_ writer: SQLiteConnection, _ reader: SQLiteConnection) throws -> Void) throws {
        try DatabaseTests.withDatabaseFile { path in
            let writer = try SQLiteConnection(path: path)
            try writer.execute("PRAGMA journal_mode=WAL; CREATE TABLE t (k INTEGER PRIMARY KEY)")
            try writer.execute("INSERT INTO t VALUES (1), (2), (3), (4), (5)")
            let reader = try SQLiteConnection(path: path)
            try reader.execute("PRAGMA query_only=1")
            try body(writer, reader)
        }
    }

    /// Up to `limit` keys after `after`, stepping no further than the last one (as a Query batch).
    static func batch(_ connection: SQLiteConnection, after: Int64, limit: Int) throws -> [Int64] {
        let statement = try connection.statement("SELECT k FROM t WHERE k > ? ORDER BY k LIMIT ?")
        statement.bind(.integer(after), .integer(Int64(limit)))
        var keys: [Int64] = []
        while keys.count < limit, try statement.step() { keys.append(statement.int64(0)) }
        return keys
    }

    @Test("batches after a full first batch read the first batch's snapshot, whatever commits between")
    func laterBatchesShareTheSnapshot() throws {
        try Self.withConnections { writer, reader in
            var keys: [Int64] = []
            let inside = try reader.readInOneSnapshot { beforeStatement in
                try beforeStatement()
                keys += try Self.batch(reader, after: 0, limit: 2)
                try writer.execute("DELETE FROM t WHERE k = 3; INSERT INTO t VALUES (6)")
                while let last = keys.last {
                    try beforeStatement()
                    let next = try Self.batch(reader, after: last, limit: 2)
                    keys += next
                    if next.count < 2 { break }
                }
                return reader.isInTransaction
            }
            #expect(keys == [1, 2, 3, 4, 5])
            #expect(inside)
            #expect(!reader.isInTransaction)
            #expect(try Self.batch(reader, after: 0, limit: 10) == [1, 2, 4, 5, 6])
        }
    }

    @Test("a read of one statement opens no transaction and holds no snapshot afterwards")
    func oneStatementNeedsNoTransaction() throws {
        try Self.withConnections { writer, reader in
            let (keys, inside) = try reader.readInOneSnapshot { beforeStatement in
                try beforeStatement()
                let keys = try Self.batch(reader, after: 0, limit: 5) // full: left on its last row
                return (keys, reader.isInTransaction)
            }
            #expect(keys == [1, 2, 3, 4, 5] && !inside)
            // Nothing holds the old snapshot: a checkpoint gets through the whole log.
            try writer.execute("INSERT INTO t VALUES (6)")
            let checkpoint = try writer.statement("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try checkpoint.step())
            #expect(checkpoint.int64(0) == 0)
            checkpoint.reset()
            #expect(try Self.batch(reader, after: 0, limit: 10) == [1, 2, 3, 4, 5, 6])
        }
    }
}
