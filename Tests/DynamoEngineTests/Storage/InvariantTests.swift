import DynamoAPI
@testable import DynamoEngine
import Synchronization
import Testing

/// `Database.checkInvariants()`: silent on data every write path produced, loud on each kind of
/// damage.
@Suite struct InvariantTests {
    /// `Orders`: pk (S) + sk (N), an LSI on `lsk`, a KEYS_ONLY GSI on `g`, an INCLUDE GSI on `g`/`sk`.
    static func makeTable(_ database: Database) throws {
        func key(_ name: String, _ type: String) -> KeySchemaElement {
            KeySchemaElement(attributeName: name, keyType: .init(rawValue: type))
        }
        func attribute(_ name: String, _ type: String) -> AttributeDefinition {
            AttributeDefinition(attributeName: name, attributeType: .init(rawValue: type))
        }
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [attribute("pk", "S"), attribute("sk", "N"), attribute("lsk", "S"), attribute("g", "S")],
                tableName: "Orders", keySchema: [key("pk", "HASH"), key("sk", "RANGE")],
                localSecondaryIndexes: [
                    LocalSecondaryIndex(
                        indexName: "byLsk", keySchema: [key("pk", "HASH"), key("lsk", "RANGE")],
                        projection: Projection(projectionType: .init(rawValue: "ALL")))
                ],
                globalSecondaryIndexes: [
                    GlobalSecondaryIndex(
                        indexName: "byG", keySchema: [key("g", "HASH")],
                        projection: Projection(projectionType: .init(rawValue: "KEYS_ONLY"))),
                    GlobalSecondaryIndex(
                        indexName: "byGSk", keySchema: [key("g", "HASH"), key("sk", "RANGE")],
                        projection: Projection(projectionType: .init(rawValue: "INCLUDE"), nonKeyAttributes: ["v"])),
                ],
                billingMode: .init(rawValue: "PAY_PER_REQUEST")), now: 1_700_000_000)
    }

    static func randomItem(_ random: inout SeededRandom) -> Item {
        var item: Item = [
            "pk": .s("p\(Int.random(in: 0..<4, using: &random))"),
            "sk": .n(DynamoNumber(Int.random(in: 0..<8, using: &random))),
        ]
        if Bool.random(using: &random) { item["lsk"] = .s("l\(Int.random(in: 0..<5, using: &random))") }
        if Int.random(in: 0..<3, using: &random) > 0 { item["g"] = .s("g\(Int.random(in: 0..<3, using: &random))") }
        if Bool.random(using: &random) { item["v"] = .n(DynamoNumber(Int.random(in: 0..<1000, using: &random))) }
        if Bool.random(using: &random) { item["w"] = .s(String(repeating: "x", count: Int.random(in: 1..<50, using: &random))) }
        return item
    }

    /// Applies `count` random writes of every kind (Put, Update, Delete, BatchWriteItem,
    /// TransactWriteItems) through the engine's public operations.
    static func randomWorkload(_ database: Database, seed: UInt64, count: Int) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<count {
            let item = randomItem(&random)
            let key: Item = ["pk": item["pk"]!, "sk": item["sk"]!]
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                _ = try database.putItem(PutItemInput(tableName: "Orders", item: item))
            case 1:
                let value = AttributeValue.s("g\(Int.random(in: 0..<3, using: &random))")
                _ = try database.updateItem(
                    UpdateItemInput(
                        tableName: "Orders", key: key, updateExpression: "SET g = :g, v = :v REMOVE lsk",
                        expressionAttributeValues: [":g": value, ":v": .n(DynamoNumber(7))]))
            case 2:
                _ = try database.deleteItem(DeleteItemInput(tableName: "Orders", key: key))
            case 3:
                var writes: [WriteRequest] = []
                var seen: Set<Item> = []
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let other = randomItem(&random)
                    let otherKey: Item = ["pk": other["pk"]!, "sk": other["sk"]!]
                    guard seen.insert(otherKey).inserted else { continue }
                    writes.append(
                        Bool.random(using: &random)
                            ? WriteRequest(putRequest: PutRequest(item: other))
                            : WriteRequest(deleteRequest: DeleteRequest(key: otherKey)))
                }
                _ = try database.batchWriteItem(BatchWriteItemInput(requestItems: ["Orders": writes]))
            default:
                let other = randomItem(&random)
                let otherKey: Item = ["pk": other["pk"]!, "sk": other["sk"]!]
                var actions = [TransactWriteItem(put: Put(item: item, tableName: "Orders"))]
                if otherKey != key { actions.append(TransactWriteItem(delete: Delete(key: otherKey, tableName: "Orders"))) }
                _ = try database.transactWriteItems(TransactWriteItemsInput(transactItems: actions), now: 1_700_000_000)
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 0xC0FFEE])
    func randomWorkloadsKeepEveryInvariant(seed: UInt64) throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database)
        try Self.randomWorkload(database, seed: seed, count: 300)
        _ = try database.describeTable(named: "Orders") // loads the live statistics
        let report = try database.checkInvariants()
        #expect(report.violations == [], "seed \(seed)")
        #expect(report.tables == 1)
        #expect(report.items > 0 && report.indexEntries > 0)
    }

    @Test func reopenedFilesKeepEveryInvariant() throws {
        try DatabaseTests.withDatabaseFile { path in
            do {
                let database = try Database(path: path, region: "us-east-1")
                try Self.makeTable(database)
                try Self.randomWorkload(database, seed: 42, count: 200)
            }
            let reopened = try Database(path: path, region: "us-east-1")
            #expect(try reopened.checkInvariants().violations == [])
        }
    }

    /// Each kind of damage, made behind the engine's back, is reported.
    @Test func damageIsReported() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database)
        try Self.randomWorkload(database, seed: 7, count: 100)
        _ = try database.putItem(PutItemInput(tableName: "Orders", item: ["pk": .s("x"), "sk": .n(DynamoNumber(1)), "g": .s("g1")]))
        let table = try database.table(named: "Orders")
        let items = "items_\(table.storageID)"
        let keysOnly = IndexStore.name(table: table, index: table.index(named: "byG")!)
        func violations(_ sql: String) throws -> [String] {
            try database.writer.withLock { state in try state.connection.execute(sql) }
            return try database.checkInvariants().violations.map(\.message)
        }
        let missing = try violations("DELETE FROM \(keysOnly) WHERE pk = (SELECT pk FROM \(keysOnly) ORDER BY pk LIMIT 1)")
        #expect(missing.contains { $0.contains("index byG misses the entry") })
        let size = try violations("UPDATE \(items) SET size = size + 1")
        #expect(size.contains { $0.contains("has size") })
        let orphan = try violations("CREATE TABLE items_999 (x)")
        #expect(orphan.contains("orphan SQLite table items_999"))
    }
}
