import DynamoAPI
@testable import DynamoEngine
import DynamoTestSupport
import Foundation
import Synchronization
import Testing

/// The TTL expiry index (`ExpiryIndex`): kept by every write path, built and dropped with the
/// TTL setting, migrated into older files, checked by `checkInvariants()`.
@Suite("TTL expiry index")
struct ExpiryIndexTests {
    typealias Support = StreamTestSupport

    static let now = Int(Support.start)

    static func enable(_ database: Database, _ enabled: Bool = true, attribute: String = "expires", table: String = "Events") throws {
        _ = try database.updateTimeToLive(
            UpdateTimeToLiveInput(
                tableName: table, timeToLiveSpecification: TimeToLiveSpecification(enabled: enabled, attributeName: attribute)))
    }

    /// The index's rows by partition key (the tables here are keyed by a string `pk`).
    static func rows(_ database: Database, table: String = "Events") throws -> [String: Double] {
        let definition = try database.table(named: table)
        let stored = try database.read { try ExpiryIndex(storageID: definition.storageID, connection: $0).all() }
        return Dictionary(uniqueKeysWithValues: stored.map { (String(decoding: $0.key.partition, as: UTF8.self), $0.value) })
    }

    static func expectIndex(
        _ database: Database, _ expected: [String: Double],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try rows(database) == expected, sourceLocation: sourceLocation)
        let violations = try database.checkInvariants().violations
        #expect(violations == [], "\(violations)", sourceLocation: sourceLocation)
    }

    static func n(_ value: Int) -> AttributeValue { .n(DynamoNumber(value)) }

    static func item(_ key: String, _ expires: AttributeValue?) -> Item {
        var item: Item = ["pk": .s(key), "g": .s("x")]
        item["expires"] = expires
        return item
    }

    @Test("PutItem, UpdateItem and DeleteItem keep the index")
    func itemOperations() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Self.enable(database)
        try Support.put(database, Self.item("a", Self.n(Self.now + 5)))
        try Support.put(database, Self.item("b", .s("\(Self.now)")))
        try Support.put(database, Self.item("c", nil))
        try Self.expectIndex(database, ["a": Double(Self.now + 5)])
        try Support.put(database, Self.item("a", .s("later")))
        _ = try database.updateItem(
            UpdateItemInput(
                tableName: "Events", key: ["pk": .s("b")], updateExpression: "SET expires = :e",
                expressionAttributeValues: [":e": .n(try DynamoNumber(parsing: "1.5e9"))]))
        _ = try database.updateItem(
            UpdateItemInput(
                tableName: "Events", key: ["pk": .s("new")], updateExpression: "SET expires = :e",
                expressionAttributeValues: [":e": Self.n(-7)]))
        try Self.expectIndex(database, ["b": 1.5e9, "new": -7])
        _ = try database.updateItem(UpdateItemInput(tableName: "Events", key: ["pk": .s("b")], updateExpression: "REMOVE expires"))
        _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s("new")]))
        try Self.expectIndex(database, [:])
    }

    @Test("BatchWriteItem and TransactWriteItems keep the index")
    func batchesAndTransactions() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Self.enable(database)
        _ = try database.batchWriteItem(
            BatchWriteItemInput(requestItems: [
                "Events": [
                    WriteRequest(putRequest: PutRequest(item: Self.item("a", Self.n(1)))),
                    WriteRequest(putRequest: PutRequest(item: Self.item("b", Self.n(2)))),
                    WriteRequest(putRequest: PutRequest(item: Self.item("c", Self.n(3)))),
                ]
            ]))
        _ = try database.batchWriteItem(
            BatchWriteItemInput(requestItems: [
                "Events": [
                    WriteRequest(deleteRequest: DeleteRequest(key: ["pk": .s("a")])),
                    WriteRequest(putRequest: PutRequest(item: Self.item("b", .bool(true)))),
                ]
            ]))
        try Self.expectIndex(database, ["c": 3])
        _ = try database.transactWriteItems(
            TransactWriteItemsInput(transactItems: [
                TransactWriteItem(put: Put(item: Self.item("d", Self.n(4)), tableName: "Events")),
                TransactWriteItem(
                    update: Update(
                        key: ["pk": .s("b")], updateExpression: "SET expires = :e",
                        tableName: "Events", expressionAttributeValues: [":e": Self.n(5)])),
                TransactWriteItem(delete: Delete(key: ["pk": .s("c")], tableName: "Events")),
            ]), now: database.clock.now())
        try Self.expectIndex(database, ["b": 5, "d": 4])
        // A transaction that fails leaves the index as it was.
        #expect(throws: DynamoError.self) {
            try database.transactWriteItems(
                TransactWriteItemsInput(transactItems: [
                    TransactWriteItem(put: Put(item: Self.item("e", Self.n(6)), tableName: "Events")),
                    TransactWriteItem(
                        conditionCheck: DynamoAPI.ConditionCheck(
                            key: ["pk": .s("b")], tableName: "Events",
                            conditionExpression: "attribute_not_exists(pk)")),
                ]), now: database.clock.now())
        }
        try Self.expectIndex(database, ["b": 5, "d": 4])
    }

    @Test("PartiQL INSERT, UPDATE and DELETE keep the index")
    func partiQL() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Self.enable(database)
        func run(_ statement: String) throws {
            _ = try database.executeStatement(ExecuteStatementInput(statement: statement), now: database.clock.now())
        }
        try run("INSERT INTO \"Events\" VALUE {'pk': 'a', 'expires': 10}")
        try run("INSERT INTO \"Events\" VALUE {'pk': 'b', 'expires': 20}")
        try run("UPDATE \"Events\" SET expires = 30 WHERE pk = 'a'")
        try run("DELETE FROM \"Events\" WHERE pk = 'b'")
        try Self.expectIndex(database, ["a": 30])
        try run("UPDATE \"Events\" SET expires = 'never' WHERE pk = 'a'")
        try Self.expectIndex(database, [:])
    }

    @Test("a DynamoDB Local table with TTL is imported with its index, and sweeps")
    func dynamoDBLocalImport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expiry-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var table = DynamoDBLocalFileWriter.Table(name: "Events", attributes: [("pk", "S")], hashKey: "pk")
        table.ttlAttribute = "expires"
        table.items = (0..<30).map { Self.item("k\($0)", $0 % 3 == 0 ? .s("no") : Self.n(Self.now + ($0 % 2 == 0 ? -60 : 60))) }
        try DynamoDBLocalFileWriter.write([table], version: .v2_4_0, to: "\(directory)/shared-local-instance.db")
        let reports = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
        let database = try Support.database(path: try #require(reports.first?.target))
        let expected = table.items.reduce(into: [String: Double]()) { rows, item in
            if case .s(let key)? = item["pk"], case .n(let number)? = item["expires"] { rows[key] = Double(number.description) }
        }
        #expect(expected.count == 20)
        try Self.expectIndex(database, expected)
        #expect(try database.sweepExpiredItems() == expected.values.filter { $0 < Support.start }.count)
        try Self.expectIndex(database, expected.filter { $0.value > Support.start })
    }

    @Test("enabling TTL builds the index from the items; disabling drops it; another attribute rebuilds it")
    func lifecycle() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Support.put(database, ["pk": .s("a"), "expires": Self.n(1), "other": Self.n(2)])
        try Support.put(database, ["pk": .s("b"), "other": Self.n(3)])
        try Self.enable(database)
        try Self.expectIndex(database, ["a": 1])
        try database.clock.advance(by: 3600)
        try Self.enable(database, false)
        #expect(try database.checkInvariants().violations == [])
        let storageID = try database.table(named: "Events").storageID
        let leftover = try database.read { connection in
            let statement = try connection.statement("SELECT count(*) FROM sqlite_master WHERE name LIKE 'ttl\\_%' ESCAPE '\\'")
            defer { statement.reset() }
            _ = try statement.step()
            return statement.int64(0)
        }
        #expect(leftover == 0, "ttl_\(storageID) is dropped with TTL off")
        try Support.put(database, ["pk": .s("c"), "expires": Self.n(4), "other": Self.n(5)])
        try database.clock.advance(by: 3600)
        try Self.enable(database, attribute: "other")
        try Self.expectIndex(database, ["a": 2, "b": 3, "c": 5])
        _ = try database.deleteTable(named: "Events")
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("checkInvariants reports an index that disagrees with the items")
    func invariantsCatchDisagreement() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Self.enable(database)
        try Support.put(database, Self.item("a", Self.n(10)))
        try Support.put(database, Self.item("b", Self.n(20)))
        let storageID = try database.table(named: "Events").storageID
        try database.writer.withLock { state in
            try state.connection.execute("UPDATE ttl_\(storageID) SET expires = 11 WHERE expires = 10")
            try state.connection.execute("DELETE FROM ttl_\(storageID) WHERE expires = 20")
        }
        let messages = try database.checkInvariants().violations.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("holds 11.0") })
        #expect(messages.contains { $0.contains("misses 20.0") })
    }

    @Test("a schema-3 file opens with the index built for its TTL tables")
    func migration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expiry-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/us-east-1.db"
        let storageID: Int64
        do {
            let database = try Support.database(path: path)
            try Support.makeTable(database, view: nil)
            try Support.makeTable(database, name: "Plain", view: nil)
            try Self.enable(database)
            for index in 0..<10 { try Support.put(database, Self.item("k\(index)", Self.n(Self.now - index))) }
            try Support.put(database, Self.item("x", Self.n(1)), table: "Plain")
            storageID = try database.table(named: "Events").storageID
        }
        // What a build before the expiry index left: no ttl_ table, schema version 3.
        let raw = try SQLiteConnection(path: path)
        try raw.execute("DROP TABLE ttl_\(storageID); PRAGMA user_version = 3;")
        let database = try Support.database(path: path)
        try Self.expectIndex(database, Dictionary(uniqueKeysWithValues: (0..<10).map { ("k\($0)", Double(Self.now - $0)) }))
        #expect(try database.sweepExpiredItems() == 10)
        // The first write after opening counts the table's rows once (they already hold the change).
        #expect(try database.describeTable(named: "Events").itemCount == 0)
        #expect(try database.describeTable(named: "Plain").itemCount == 1)
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("a sweep page is a range of the expiry index, not a scan of the items")
    func sweepUsesTheIndex() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Self.enable(database)
        let storageID = try database.table(named: "Events").storageID
        let plan = try database.read { connection in
            let statement = try connection.statement(
                """
                EXPLAIN QUERY PLAN SELECT expires, hash, pk, sk FROM ttl_\(storageID)
                WHERE expires >= ? AND expires <= ? ORDER BY expires, hash, pk, sk LIMIT ?
                """)
            defer { statement.reset() }
            var details: [String] = []
            while try statement.step() { details.append(statement.text(3)) }
            return details.joined(separator: "; ")
        }
        #expect(plan.contains("USING COVERING INDEX ttl_\(storageID)_expires"), "\(plan)")
        #expect(!plan.contains("items_"))
    }
}
