import DynamoAPI
@testable import DynamoEngine
import DynamoTestSupport
import Testing

/// The in-memory database (`serve --in-memory`, `Database(path: nil)`) is a `memdb` file whose
/// page cache stays bounded as it grows (issue #14: with `:memory:` the cache is the whole
/// database, and SQLite walks all of it on commits after some B-tree splits).
@Suite struct InMemoryDatabaseTests {
    /// Inserts `rows` rows of 1 KiB at seeded random keys (splits in the middle of the B-tree,
    /// as items' hashed keys make), 100 rows a transaction.
    static func grow(_ connection: SQLiteConnection, rows: Int, seed: UInt64) throws {
        try connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID")
        var generator = SeededRandom(seed: seed)
        for start in stride(from: 0, to: rows, by: 100) {
            try connection.transaction {
                for _ in start..<min(start + 100, rows) {
                    try connection.statement("INSERT OR REPLACE INTO t (k, v) VALUES (?, zeroblob(1024))")
                        .bind(.integer(Int64.random(in: 0...Int64.max, using: &generator))).run()
                }
            }
        }
    }

    @Test("a :memory: database's page cache grows with it (the cause)")
    func memoryDatabaseCacheGrows() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try Self.grow(connection, rows: 8000, seed: 14)
        #expect(connection.pageCacheBytes > 8 << 20)
    }

    @Test("the namespace's in-memory database keeps its page cache bounded as it grows")
    func inMemoryCacheIsBounded() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try database.read { connection in
            // In memory, a read runs on the writer's connection: grow it in transactions of its own.
            try Self.grow(connection, rows: 8000, seed: 14)
            // SQLite's default cache_size (2,000 KiB, as on disk) and its headers.
            #expect(connection.pageCacheBytes < 4 << 20)
            let count = try connection.statement("SELECT count(*), sum(length(v)) FROM t")
            #expect(try count.step())
            #expect(count.int64(0) > 7900 && count.int64(1) == count.int64(0) * 1024)
            count.reset()
        }
    }

    @Test("the in-memory database has no size limit (memdb's default is 1 GiB) and rolls back")
    func inMemoryLimitAndRollback() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(connection.inMemorySizeLimit == Int64.max)
        #expect(try SQLiteConnection(path: ":memory:").inMemorySizeLimit == nil)
        try connection.execute("CREATE TABLE t (x INTEGER)")
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try connection.transaction { () throws -> Void in
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        let count = try connection.statement("SELECT count(*) FROM t")
        #expect(try count.step())
        #expect(count.int64(0) == 0)
        count.reset()
        // Two in-memory databases are two databases.
        let other = try SQLiteConnection.inMemory()
        let tables = try other.statement("SELECT count(*) FROM sqlite_schema")
        #expect(try tables.step())
        #expect(tables.int64(0) == 0)
        tables.reset()
    }
}
