import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Global indexes added to populated tables: the backfill, writes racing it, restarts.
@Suite("Index builds")
struct IndexBuildTests {
    static let itemCount = 600

    /// `Things` (pk S) with `itemCount` items `k0…`, each with `color` red.
    static func populated(_ database: Database) throws {
        try DatabaseTests.makeTable(database)
        for index in 0..<itemCount {
            _ = try database.putItem(
                PutItemInput(
                    tableName: "Things",
                    item: ["pk": .s("k\(index)"), "color": .s("red")]))
        }
    }

    /// Adds a CREATING index `by-color` without starting its backfill, as a server killed right
    /// after UpdateTable leaves it.
    static func addBuildingIndex(_ database: Database) throws -> IndexDefinition {
        let index = IndexDefinition(
            name: "by-color", partitionKey: KeyAttribute(name: "color", type: .string),
            sortKey: nil, projectionType: .keysOnly, status: .creating,
            storageNumber: 1, isGlobal: true)
        _ = try database.updateDefinition(named: "Things") { definition, connection in
            definition.globalIndexes.append(index)
            try connection.execute(IndexStore.createSQL(table: definition, index: index))
        }
        return index
    }

    /// Runs the backfill of `index` to the end on the calling thread, from `cursor`.
    static func build(_ database: Database, _ index: IndexDefinition, from cursor: Database.BackfillCursor? = nil) throws {
        var cursor = cursor
        while case .more(let after) = try database.backfillStep(table: database.table(named: "Things"), index: index, after: cursor) {
            cursor = after
        }
    }

    static func colored(_ database: Database, _ color: String) throws -> Set<String> {
        var keys = Set<String>()
        var start: Item?
        repeat {
            let page = try database.query(
                table: "Things", index: "by-color",
                keyCondition: KeyConditionSpec(partitionName: "color", partitionValue: .s(color)), forward: true,
                options: ReadOptions(exclusiveStartKey: start))
            for json in page.items {
                if case .s(let key)? = try AttributeValue.decodeItem(JSONValue(parsing: json))["pk"] { keys.insert(key) }
            }
            start = page.lastEvaluatedKey
        } while start != nil
        return keys
    }

    @Test("a building index refuses reads; writes racing the backfill leave it exact")
    func writesDuringBackfill() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.populated(database)
        let index = try Self.addBuildingIndex(database)
        #expect(throws: DynamoError.validation("Cannot read from backfilling global secondary index: by-color")) {
            try Self.colored(database, "red")
        }
        // One chunk in, then writes on both sides of the backfill's position.
        guard case .more(let cursor) = try database.backfillStep(table: database.table(named: "Things"), index: index, after: nil) else {
            Issue.record("a \(Self.itemCount)-item table takes more than one chunk")
            return
        }
        var blue = Set<String>(), gone = Set<String>()
        for number in stride(from: 0, to: Self.itemCount, by: 37) {
            _ = try database.putItem(
                PutItemInput(
                    tableName: "Things",
                    item: ["pk": .s("k\(number)"), "color": .s("blue")]))
            blue.insert("k\(number)")
            _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("k\(number + 1)")]))
            gone.insert("k\(number + 1)")
        }
        try Self.build(database, index, from: cursor)
        #expect(try database.table(named: "Things").index(named: "by-color")?.status == .active)
        let all = Set((0..<Self.itemCount).map { "k\($0)" })
        #expect(try Self.colored(database, "blue") == blue)
        #expect(try Self.colored(database, "red") == all.subtracting(blue).subtracting(gone))
        let snapshot = try database.describeTable(named: "Things")
        #expect(snapshot.indexStatistics["by-color"]?.itemCount == Int64(all.count - gone.count))
    }

    @Test("a build's pending work never reaches a table replaced by another of its name")
    func buildAbandonedWhenTableRecreated() throws {
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        let empty = try database.takeSnapshot()
        try Self.populated(database)
        let index = try Self.addBuildingIndex(database)
        let old = try database.table(named: "Things")
        guard case .more(let cursor) = try database.backfillStep(table: old, index: index, after: nil) else {
            Issue.record("a \(Self.itemCount)-item table takes more than one chunk")
            return
        }
        // The same name, the same index (same storage number), while the old build is mid-way:
        // a snapshot restored over the database (DeleteTable refuses a table with an index in
        // transition), then the table created again.
        try database.restore(empty)
        try Self.populated(database)
        _ = try Self.addBuildingIndex(database)
        #expect(try database.table(named: "Things").storageID != old.storageID)
        // The old build's next chunk (its cursor a position in the old items) and a retry of its
        // work both leave the new table's index alone.
        guard case .abandoned = try database.backfillStep(table: old, index: index, after: cursor) else {
            Issue.record("the old build went on in the new table")
            return
        }
        try database.runIndexWork(table: old, index: index.name)
        #expect(try database.table(named: "Things").index(named: "by-color")?.status == .creating)
        // The new table's own build indexes all of its items.
        try Self.build(database, index)
        #expect(try Self.colored(database, "red").count == Self.itemCount)
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("a build running when a snapshot of the same table is restored stops; the restored build indexes every item")
    func buildStopsWhenSnapshotRestored() throws {
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        try Self.populated(database)
        let index = try Self.addBuildingIndex(database)
        // Taken before the build indexed anything: the same table (same storage id) and the same
        // CREATING index, with an empty index table.
        let snapshot = try database.takeSnapshot()
        let table = try database.table(named: "Things")
        guard case .more(let cursor) = try database.backfillStep(table: table, index: index, after: nil) else {
            Issue.record("a \(Self.itemCount)-item table takes more than one chunk")
            return
        }
        try database.restore(snapshot)
        #expect(try database.table(named: "Things").storageID == table.storageID)
        // Going on from its cursor would index only the items after it and then mark the index
        // ACTIVE with the first chunk's entries missing (the restore emptied the index table).
        guard case .abandoned = try database.backfillStep(table: table, index: index, after: cursor) else {
            Issue.record("the build went on over the restored contents")
            return
        }
        #expect(try database.table(named: "Things").index(named: "by-color")?.status == .creating)
        try Self.build(database, index)
        #expect(try Self.colored(database, "red").count == Self.itemCount)
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("an interrupted build starts over when the database is opened again")
    func resumesAfterRestart() throws {
        try DatabaseTests.withDatabaseFile { path in
            do {
                let database = try Database(path: path, region: "us-east-1")
                try Self.populated(database)
                let index = try Self.addBuildingIndex(database)
                _ = try database.backfillStep(table: database.table(named: "Things"), index: index, after: nil)
            }
            let reopened = try Database(path: path, region: "us-east-1")
            let deadline = Date().addingTimeInterval(30)
            while try reopened.table(named: "Things").index(named: "by-color")?.status != .active {
                try #require(Date() < deadline, "the resumed build did not finish in 30 s")
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(try Self.colored(reopened, "red").count == Self.itemCount)
        }
    }

    @Test("a read that finds its index's storage dropped under it reports the index as missing")
    func readRacingADrop() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.populated(database)
        let index = try Self.addBuildingIndex(database)
        try Self.build(database, index)
        // The storage goes first, as a drop running between a request's lookup and its read would.
        let table = try database.table(named: "Things")
        try database.write { state in
            try state.connection.dropTable(named: IndexStore.name(table: table, index: index))
        }
        #expect(throws: DynamoError.validation("The table does not have the specified index: by-color")) {
            try Self.colored(database, "red")
        }
    }
}
