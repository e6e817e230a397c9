import DynamoAPI
@testable import DynamoEngine
import Testing

/// The page cache layer (`CSQLitePageCache`): commits of an in-memory database skip SQLite's
/// truncation walk, and a rollback that shrinks the database still drops the pages it must.
@Suite struct PageCacheLayerTests {
    /// A random key of 16 bytes and a value of `size` bytes from `random`.
    static func row(_ random: inout SplitMix64, size: Int) -> (key: [UInt8], value: [UInt8]) {
        let key = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let value = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        return (key, value)
    }

    @Test("commits of a table filled at random keys never pass a truncation on to SQLite's cache")
    func randomInsertsSkipTheWalk() throws {
        #expect(SQLiteConnection.pageCacheInstalled)
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID")
        var random = SplitMix64(seed: 0x5EED_CAC4E)
        let before = SQLiteConnection.pageCacheTruncations()
        for _ in 0..<4_000 {
            let (key, value) = Self.row(&random, size: 200)
            try connection.statement("INSERT INTO t (k, v) VALUES (?, ?)").bind(.blob(key), .blob(value)).run()
        }
        let after = SQLiteConnection.pageCacheTruncations()
        // Each commit truncates the cache to the database's size. Splits at random keys move pages
        // through the lock-byte page number (about one commit in five); SQLite's own cache then
        // walks every page at the next commit. The layer knows no page is above the size.
        #expect(after.skipped - before.skipped >= 4_000)
        #expect(after.passed == before.passed)
        let count = try connection.statement("SELECT count(*) FROM t")
        #expect(try count.step())
        #expect(count.int64(0) == 4_000)
    }

    @Test("seeded transactions that grow the database and roll back leave exactly the committed rows")
    func rollbacksDropGrownPages() throws {
        for seed: UInt64 in [1, 2, 3] {
            let connection = try SQLiteConnection(path: ":memory:")
            try connection.execute("CREATE TABLE t (k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID")
            var random = SplitMix64(seed: seed)
            var model: [[UInt8]: [UInt8]] = [:]
            let before = SQLiteConnection.pageCacheTruncations()
            for _ in 0..<300 {
                try connection.execute("BEGIN")
                var pending = model
                for _ in 0..<Int.random(in: 1...40, using: &random) {
                    if !pending.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
                        let key = pending.keys.randomElement(using: &random)!
                        try connection.statement("DELETE FROM t WHERE k = ?").bind(.blob(key)).run()
                        pending[key] = nil
                    } else {
                        let (key, value) = Self.row(&random, size: Int.random(in: 1...3_000, using: &random))
                        try connection.statement("INSERT INTO t (k, v) VALUES (?, ?)").bind(.blob(key), .blob(value))
                            .run()
                        pending[key] = value
                    }
                }
                if Bool.random(using: &random) {
                    try connection.execute("COMMIT")
                    model = pending
                } else {
                    try connection.execute("ROLLBACK")
                }
            }
            let after = SQLiteConnection.pageCacheTruncations()
            // Rollbacks of a grown database are the truncations that must reach SQLite's cache.
            #expect(after.passed > before.passed, "seed \(seed)")
            var stored: [[UInt8]: [UInt8]] = [:]
            let rows = try connection.statement("SELECT k, v FROM t")
            while try rows.step() { stored[rows.blob(0)] = rows.blob(1) }
            #expect(stored == model, "seed \(seed)")
            let check = try connection.statement("PRAGMA integrity_check")
            #expect(try check.step())
            #expect(check.text(0) == "ok", "seed \(seed)")
        }
    }
}
