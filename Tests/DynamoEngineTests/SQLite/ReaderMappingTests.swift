@testable import DynamoEngine
import Foundation
import Testing

/// Reader connections map the database file (`Database.configureReader`): they must read what
/// the writer committed, also after the file shrank under their mapping.
@Suite struct ReaderMappingTests {
    /// A writer in WAL mode and a reader set up as the database's pooled readers are, on a
    /// fresh file, with table `t` of `rows` rows of 1 KiB.
    static func withWriterAndReader(
        rows: Int, _ body: (_ writer: SQLiteConnection, _ reader: SQLiteConnection, _ path: String) throws -> Void
    ) throws {
        try DatabaseTests.withDatabaseFile { path in
            let writer = try SQLiteConnection(path: path)
            try writer.execute("PRAGMA journal_mode=WAL; CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)")
            try insert(writer, from: 1, through: rows)
            let reader = try SQLiteConnection(path: path)
            try Database.configureReader(reader)
            try body(writer, reader, path)
        }
    }

    /// Inserts rows `first...last` of 1 KiB each.
    static func insert(_ writer: SQLiteConnection, from first: Int, through last: Int) throws {
        try writer.execute(
            """
            WITH RECURSIVE s(k) AS (SELECT \(first) UNION ALL SELECT k + 1 FROM s WHERE k < \(last))
            INSERT INTO t SELECT k, randomblob(1024) FROM s
            """)
    }

    static func count(_ connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.statement("SELECT count(*), total(length(v)) FROM t")
        defer { statement.reset() }
        #expect(try statement.step())
        return statement.int64(0)
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("a reader connection maps the file and stays read-only")
    func readerMaps() throws {
        try Self.withWriterAndReader(rows: 10) { _, reader, _ in
            let size = try reader.statement("PRAGMA mmap_size")
            #expect(try size.step())
            #expect(size.int64(0) == Int64(Database.readerMapBytes))
            size.reset()
            #expect(throws: SQLiteError.self) { try reader.execute("DELETE FROM t") }
        }
    }

    @Test("a reader sees the rows after the file shrank under its mapping and grew again")
    func readerFollowsShrinkingFile() throws {
        try Self.withWriterAndReader(rows: 4000) { writer, reader, path in
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try Self.count(reader) == 4000) // every page read through the mapping
            let grown = Self.fileSize(path)
            try writer.execute("DELETE FROM t WHERE k > 10; VACUUM; PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(Self.fileSize(path) < grown / 10) // the file shrank under the reader's mapping
            #expect(try Self.count(reader) == 10)
            try Self.insert(writer, from: 11, through: 3000)
            #expect(try Self.count(reader) == 3000) // from the log
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try Self.count(reader) == 3000) // from the file, mapped again
        }
    }
}
