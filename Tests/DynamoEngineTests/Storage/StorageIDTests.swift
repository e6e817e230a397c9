import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Storage ids are never given twice in one file: work that recognises its table by storage id
/// (index builds, TTL sweeps, exports, point-in-time restores) must not mistake a table deleted
/// and created again under its name for the old one.
@Suite struct StorageIDTests {
    @Test("a table deleted and created again gets a new storage id, across reopens")
    func recreatedTableGetsNewID() throws {
        try DatabaseTests.withDatabaseFile { path in
            var seen: [Int64] = []
            for _ in 0..<3 {
                let database = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
                try InvariantTests.makeTable(database)
                seen.append(try database.table(named: "Orders").storageID)
                _ = try database.deleteTable(named: "Orders")
                try InvariantTests.makeTable(database)
                seen.append(try database.table(named: "Orders").storageID)
                _ = try database.deleteTable(named: "Orders")
            }
            #expect(seen == seen.sorted() && Set(seen).count == seen.count, "\(seen)")
        }
    }

    @Test("restoring a snapshot keeps ids given since it was taken")
    func snapshotRestoreKeepsCounter() throws {
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        let snapshot = try database.takeSnapshot()
        try InvariantTests.makeTable(database)
        let given = try database.table(named: "Orders").storageID
        try database.restore(snapshot)
        try InvariantTests.makeTable(database)
        #expect(try database.table(named: "Orders").storageID > given)
    }

    @Test("a schema-4 file starts its counter above the ids it holds")
    func migrationFromSchema4() throws {
        try DatabaseTests.withDatabaseFile { path in
            let kept: Int64
            do {
                let database = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
                try InvariantTests.makeTable(database)
                kept = try database.table(named: "Orders").storageID
            }
            // What a build before the counter left: no storage_ids table, schema version 4.
            let raw = try SQLiteConnection(path: path)
            try raw.execute("DROP TABLE storage_ids; PRAGMA user_version = 4;")
            let database = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
            _ = try database.deleteTable(named: "Orders")
            try InvariantTests.makeTable(database)
            #expect(try database.table(named: "Orders").storageID == kept + 1)
            #expect(try database.checkInvariants().violations == [])
        }
    }
}
