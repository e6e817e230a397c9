import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Engine tests run against real SQLite databases, in memory or in a temporary directory.
@Suite("Database")
struct DatabaseTests {
    static func makeTable(_ database: Database, name: String = "Things", sortKey: Bool = false) throws {
        var definitions = [AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S"))]
        var schema = [KeySchemaElement(attributeName: "pk", keyType: .init(rawValue: "HASH"))]
        if sortKey {
            definitions.append(AttributeDefinition(attributeName: "sk", attributeType: .init(rawValue: "N")))
            schema.append(KeySchemaElement(attributeName: "sk", keyType: .init(rawValue: "RANGE")))
        }
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: definitions, tableName: name, keySchema: schema,
                billingMode: .init(rawValue: "PAY_PER_REQUEST")),
            now: 1_700_000_000)
    }

    @Test("put, get, delete one item")
    func itemLifecycle() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database)
        let item: Item = ["pk": .s("a"), "count": .n(DynamoNumber(3))]
        _ = try database.putItem(PutItemInput(tableName: "Things", item: item))
        let read = try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("a")]))
        let json = try #require(read.json)
        #expect(try AttributeValue.decodeItem(JSONValue(parsing: json)) == item)
        let deleted = try database.deleteItem(
            DeleteItemInput(
                tableName: "Things", key: ["pk": .s("a")],
                returnValues: .init(rawValue: "ALL_OLD")))
        #expect(deleted.oldItem == item)
        #expect(try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("a")])).json == nil)
    }

    @Test("statistics follow writes")
    func statistics() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database)
        for index in 0..<5 {
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("k\(index)"), "v": .s("xy")]))
        }
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("k0"), "v": .s("xyz")]))
        _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("k4")]))
        let snapshot = try database.describeTable(named: "Things")
        #expect(snapshot.itemCount == 4)
        #expect(snapshot.sizeBytes == Int64(3 * (4 + 3) + (4 + 4)))
    }

    @Test("key validation uses DynamoDB's messages")
    func keyValidation() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database, sortKey: true)
        let mismatch = DynamoError.validation("The provided key element does not match the schema")
        #expect(throws: mismatch) { try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("a")])) }
        #expect(throws: mismatch) {
            try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("a"), "sk": .s("1")]))
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: Missing the key sk in the item")
        ) {
            try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a")]))
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S")
        ) {
            try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "sk": .s("x")]))
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk")
        ) {
            try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s(""), "sk": .n(DynamoNumber(1))]))
        }
    }

    @Test("items larger than 400 KB are refused, 400 KB exactly is stored")
    func itemSizeLimit() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database)
        // "pk" (2) + "a" (1) + "v" (1) + payload
        let fitting = String(repeating: "x", count: ItemSize.maximum - 4)
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .s(fitting)]))
        #expect(throws: DynamoError.validation("Item size has exceeded the maximum allowed size")) {
            try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .s(fitting + "x")]))
        }
    }

    @Test("legacy AttributeUpdates: PUT, ADD to numbers and sets, DELETE from sets")
    func legacyUpdates() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try Self.makeTable(database)
        let key: Item = ["pk": .s("a")]
        func update(_ updates: [String: AttributeValueUpdate]) throws -> Item? {
            try database.updateItem(UpdateItemInput(tableName: "Things", key: key, attributeUpdates: updates)).newItem
        }
        let put = AttributeAction(rawValue: "PUT"), add = AttributeAction(rawValue: "ADD"),
            delete = AttributeAction(rawValue: "DELETE")
        _ = try update(["n": AttributeValueUpdate(value: .n(DynamoNumber(5)), action: put)])
        _ = try update([
            "n": AttributeValueUpdate(value: .n(DynamoNumber(-2)), action: add),
            "tags": AttributeValueUpdate(value: .ss(["x", "y"]), action: add),
        ])
        let after = try update(["tags": AttributeValueUpdate(value: .ss(["x", "y"]), action: delete)])
        #expect(after == ["pk": .s("a"), "n": .n(DynamoNumber(3))])
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key")
        ) {
            try update(["pk": AttributeValueUpdate(value: .s("b"), action: put)])
        }
    }

    @Test("a missing table is ResourceNotFoundException")
    func missingTable() throws {
        let database = try Database(path: nil, region: "us-east-1")
        #expect(throws: DynamoError.tableNotFound()) {
            try database.getItem(GetItemInput(tableName: "Nope", key: ["pk": .s("a")]))
        }
    }

    /// Runs `body` with the path of a database file in a new directory, removed afterwards.
    static func withDatabaseFile(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ld-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.appendingPathComponent("test.db").path)
    }

    @Test("tables and items survive reopening the file")
    func persistence() throws {
        try Self.withDatabaseFile { path in
            do {
                let database = try Database(path: path, region: "us-east-1")
                try Self.makeTable(database)
                _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("kept")]))
            }
            let reopened = try Database(path: path, region: "us-east-1")
            #expect(reopened.tables.keys.sorted() == ["Things"])
            #expect(try reopened.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("kept")])).json != nil)
            #expect(try reopened.describeTable(named: "Things").itemCount == 1)
        }
    }

    @Test("ListTables pages in name order")
    func listTables() throws {
        let database = try Database(path: nil, region: "us-east-1")
        for name in ["ccc", "aaa", "bbb", "ddd"] { try Self.makeTable(database, name: name) }
        let first = database.listTables(exclusiveStart: nil, limit: 2)
        #expect(first.names == ["aaa", "bbb"])
        #expect(first.lastEvaluated == "bbb")
        let second = database.listTables(exclusiveStart: "bbb", limit: 2)
        #expect(second.names == ["ccc", "ddd"])
        #expect(second.lastEvaluated == nil)
    }
}
