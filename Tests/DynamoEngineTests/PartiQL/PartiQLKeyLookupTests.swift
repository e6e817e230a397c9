import DynamoAPI
@testable import DynamoEngine
import DynamoTestSupport
import Testing

/// A SELECT by equalities on the whole key runs as a GetItem without a plan (the statement's
/// `PartiQLKeyLookup`, kept with its parse by text). Nothing about the table may stick to the
/// statement: the same texts, sent while the table is recreated under the same name with other
/// key schemas and types, updated and written, must answer as GetItem (for a key lookup) and as
/// the items the test wrote (for every statement).
@Suite("PartiQL key lookups")
struct PartiQLKeyLookupTests {
    /// One statement text the test sends again and again: the attributes its `?`s compare with
    /// (in order), its literal equalities and its select list (`nil`: `*`).
    private struct Statement {
        var text: String
        var parameters: [String]
        var literals: [(String, AttributeValue)] = []
        var projection: [String]?
    }

    private static let statements = [
        Statement(text: #"SELECT * FROM "T" WHERE pk = ?"#, parameters: ["pk"]),
        Statement(text: #"SELECT * FROM "T" WHERE sk = ?"#, parameters: ["sk"]),
        Statement(text: #"SELECT * FROM "T" WHERE pk = ? AND sk = ?"#, parameters: ["pk", "sk"]),
        Statement(text: #"SELECT * FROM "T" WHERE ? = sk AND pk = ?"#, parameters: ["sk", "pk"]),
        Statement(text: #"SELECT v, pk FROM "T" WHERE pk = ? AND sk = ?"#, parameters: ["pk", "sk"], projection: ["v", "pk"]),
        Statement(text: #"SELECT * FROM "T" WHERE pk = ? AND v = ?"#, parameters: ["pk", "v"]),
        Statement(text: #"SELECT * FROM "T" WHERE pk = 'a'"#, parameters: [], literals: [("pk", .s("a"))]),
        Statement(
            text: #"SELECT sk FROM "T" WHERE sk = 2 AND pk = ?"#, parameters: ["pk"], literals: [("sk", .n(DynamoNumber(2)))],
            projection: ["sk"]),
    ]

    /// Values small enough that lookups often find an item.
    private static func value(_ type: String, _ random: inout DynamoTestSupport.SeededRandom) -> AttributeValue {
        let n = random.int(1..<4)
        switch type {
        case "S": return .s(["a", "b", "c"][n - 1])
        case "N": return .n(DynamoNumber(n))
        default: return .b([UInt8(n)])
        }
    }

    private static let types = ["S", "N", "B"]

    /// The table's key: attribute names and types, partition key first.
    private struct KeySchema {
        var keys: [(name: String, type: String)]
    }

    private static func recreate(_ database: Database, _ random: inout DynamoTestSupport.SeededRandom, dropping: Bool) throws -> KeySchema {
        if dropping { _ = try database.deleteTable(named: "T") }
        let partition = random.pick(["pk", "sk"])
        var keys = [(name: partition, type: random.pick(types))]
        if random.chance(60) { keys.append((name: partition == "pk" ? "sk" : "pk", type: random.pick(types))) }
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: keys.map { AttributeDefinition(attributeName: $0.name, attributeType: .init(rawValue: $0.type)) },
                tableName: "T",
                keySchema: keys.enumerated().map { position, key in
                    KeySchemaElement(attributeName: key.name, keyType: .init(rawValue: position == 0 ? "HASH" : "RANGE"))
                },
                billingMode: .init(rawValue: "PAY_PER_REQUEST")),
            now: database.clock.now())
        return KeySchema(keys: keys)
    }

    @Test("the same statements follow the table through recreations, updates and writes", arguments: [11, 12, 13, 14] as [UInt64])
    func neverStale(seed: UInt64) throws {
        var random = DynamoTestSupport.SeededRandom(seed: seed)
        let database = try Database(path: nil, region: "us-east-1")
        var schema = try Self.recreate(database, &random, dropping: false)
        var items: [Item] = [] // what the table holds, as the test wrote it
        var lookups = 0
        for _ in 0..<600 {
            let roll = random.int(0..<100)
            if roll < 6 {
                schema = try Self.recreate(database, &random, dropping: true)
                items = []
            } else if roll < 10 {
                let tableClass = random.pick(["STANDARD", "STANDARD_INFREQUENT_ACCESS"])
                _ = try database.updateTable(
                    UpdateTableInput(tableName: "T", tableClass: .init(rawValue: tableClass)), now: database.clock.now())
            } else if roll < 40 {
                var item: Item = [:]
                for key in schema.keys { item[key.name] = Self.value(key.type, &random) }
                item["v"] = .n(DynamoNumber(random.int(0..<3)))
                // A non-key `pk` or `sk` of any type, for the statements that filter on it.
                for name in ["pk", "sk"] where item[name] == nil && random.chance(50) {
                    item[name] = Self.value(random.pick(Self.types), &random)
                }
                _ = try database.putItem(PutItemInput(tableName: "T", item: item))
                items.removeAll { stored in schema.keys.allSatisfy { stored[$0.name] == item[$0.name] } }
                items.append(item)
            } else if roll < 45, let victim = items.randomElement(using: &random) {
                let key = Item(uniqueKeysWithValues: schema.keys.map { ($0.name, victim[$0.name]!) })
                _ = try database.deleteItem(DeleteItemInput(tableName: "T", key: key))
                items.removeAll { stored in schema.keys.allSatisfy { stored[$0.name] == key[$0.name] } }
            } else {
                lookups += try Self.lookUp(database, schema: schema, items: items, &random) ? 1 : 0
            }
        }
        // The seeds exercise the GetItem comparison, not only the general path.
        #expect(lookups > 20)
    }

    /// Sends a random statement with random parameters (mostly of the key's types) and checks
    /// the answer against the items; for a lookup of the whole key, also against GetItem, and
    /// that the server would run it on an event loop. Returns whether it was such a lookup.
    private static func lookUp(_ database: Database, schema: KeySchema, items: [Item], _ random: inout DynamoTestSupport.SeededRandom) throws -> Bool
    {
        let statement = random.pick(statements)
        var parameters: [AttributeValue] = []
        for name in statement.parameters {
            var type = random.pick(types)
            if let keyType = schema.keys.first(where: { $0.name == name })?.type, random.chance(80) { type = keyType }
            parameters.append(value(type, &random))
        }
        let equalities = zip(statement.parameters, parameters).map { ($0, $1) } + statement.literals
        func project(_ item: Item) -> Item {
            guard let projection = statement.projection else { return item }
            return item.filter { projection.contains($0.key) }
        }
        let expected = items.filter { item in equalities.allSatisfy { item[$0.0] == $0.1 } }.map(project)
        let input = ExecuteStatementInput(statement: statement.text, parameters: parameters)
        let answer = try database.executeStatement(input, now: database.clock.now()).items ?? []
        #expect(answer.count == expected.count && expected.allSatisfy { answer.contains($0) }, "\(statement.text) \(String(describing: parameters))")

        let isKeyLookup =
            equalities.count == schema.keys.count
            && schema.keys.allSatisfy { key in equalities.contains { $0.0 == key.name && $0.1.typeDescriptor == key.type } }
        guard isKeyLookup else { return false }
        let key = Item(uniqueKeysWithValues: equalities.map { ($0.0, $0.1) })
        let read = try database.getItem(GetItemInput(tableName: "T", key: key))
        let item = try read.json.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
        #expect(answer == (item.map { [project($0)] } ?? []), "\(statement.text) \(String(describing: parameters))")
        #expect(database.readsOneItemByKey(input), "\(statement.text) \(String(describing: parameters))")
        return true
    }
}
