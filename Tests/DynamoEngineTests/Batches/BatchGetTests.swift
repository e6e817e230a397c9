import DynamoAPI
@testable import DynamoEngine
import Testing

/// BatchGetItem at the engine: keys over tables read in one snapshot, the limits and duplicate
/// checks, and the keys left unprocessed when the response reaches its size limit.
@Suite struct BatchGetTests {
    static func request(_ body: String) throws -> BatchGetItemInput {
        try BatchGetItemInput.decodeRequest(JSONValue(parsing: body))
    }

    /// `{"Keys":[{"pk":{"S":…}},…]}` plus `extra` members.
    static func block(_ keys: [String], extra: String = "") -> String {
        let list = keys.map { #"{"pk":{"S":"\#($0)"}}"# }.joined(separator: ",")
        return #"{"Keys":[\#(list)]\#(extra)}"#
    }

    /// `Things` and `Others`, each with items `k0…k<count-1>` of about `size` bytes.
    static func database(items count: Int, size: Int = 10) throws -> Database {
        let database = try BatchWriteTests.database()
        for table in ["Things", "Others"] {
            for number in 0..<count {
                _ = try database.putItem(
                    PutItemInput(
                        tableName: table,
                        item: ["pk": .s("k\(number)"), "v": .s(String(repeating: "v", count: size)), "w": .n(DynamoNumber(number))]))
            }
        }
        return database
    }

    /// The `pk` of each item (wire JSON).
    static func keys(_ items: [[UInt8]]) throws -> Set<String> {
        Set(
            try items.map { json in
                guard case .s(let key)? = try AttributeValue.decodeItem(JSONValue(parsing: json))["pk"] else { return "" }
                return key
            })
    }

    @Test("keys over two tables: found items, missing keys left out, capacity per table")
    func readsOverTables() throws {
        let database = try Self.database(items: 3)
        let result = try database.batchGetItem(
            Self.request(
                #"{"RequestItems":{"Things":\#(Self.block(["k0", "k2", "absent"])),"Others":\#(Self.block(["k1"], extra: #","ConsistentRead":true"#))}}"#
            ))
        #expect(try Self.keys(result.responses["Things"] ?? []) == ["k0", "k2"])
        #expect(try Self.keys(result.responses["Others"] ?? []) == ["k1"])
        #expect(result.unprocessed.isEmpty)
        // Half a unit per eventually consistent read (a missing key too), one per strong read.
        #expect(result.capacity == ["Things": ConsumedUnits(table: 1.5), "Others": ConsumedUnits(table: 1)])
    }

    @Test("a projection applies to each table's items; mixing projection styles across tables is refused")
    func projections() throws {
        let database = try Self.database(items: 2)
        let result = try database.batchGetItem(
            Self.request(#"{"RequestItems":{"Things":\#(Self.block(["k1"], extra: #","ProjectionExpression":"w""#))}}"#))
        let item = try AttributeValue.decodeItem(JSONValue(parsing: try #require(result.responses["Things"]?.first)))
        #expect(item == ["w": .n(DynamoNumber(1))])
        let mixed =
            #"{"RequestItems":{"Things":\#(Self.block(["k1"], extra: #","ProjectionExpression":"w""#)),"Others":\#(Self.block(["k1"], extra: #","AttributesToGet":["w"]"#))}}"#
        #expect(
            throws: DynamoError.validation(
                "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"
            )
        ) {
            try database.batchGetItem(Self.request(mixed))
        }
    }

    @Test("more than 100 keys over all tables, or one key twice in a table, are refused")
    func limitsAndDuplicates() throws {
        let database = try Self.database(items: 1)
        let fifty = (0..<50).map { "k\($0)" }
        let tooMany = #"{"RequestItems":{"Things":\#(Self.block(fifty)),"Others":\#(Self.block(fifty + ["k50"]))}}"#
        #expect(throws: DynamoError.validation("Too many items requested for the BatchGetItem call")) {
            try database.batchGetItem(Self.request(tooMany))
        }
        let hundred = try database.batchGetItem(Self.request(#"{"RequestItems":{"Things":\#(Self.block(fifty)),"Others":\#(Self.block(fifty))}}"#))
        #expect(try Self.keys(hundred.responses["Things"] ?? []) == ["k0"])
        #expect(throws: DynamoError.validation("Provided list of item keys contains duplicates")) {
            try database.batchGetItem(Self.request(#"{"RequestItems":{"Things":\#(Self.block(["k0", "k0"]))}}"#))
        }
        // The same key in two tables is two different items.
        let both = try database.batchGetItem(Self.request(#"{"RequestItems":{"Things":\#(Self.block(["k0"])),"Others":\#(Self.block(["k0"]))}}"#))
        #expect(both.responses.mapValues(\.count) == ["Things": 1, "Others": 1])
    }

    @Test("keys past the response size limit come back unprocessed, as they were asked, until none remain")
    func unprocessedKeys() throws {
        let database = try Self.database(items: 10, size: 1000)
        let keys = (0..<10).map { "k\($0)" }
        var next: BatchGetItemInput? = try Self.request(
            #"{"RequestItems":{"Things":\#(Self.block(keys, extra: #","ProjectionExpression":"pk, w""#)),"Others":\#(Self.block(keys))}}"#)
        var found: [String: Set<String>] = [:]
        var calls = 0
        while let input = next {
            calls += 1
            try #require(calls <= 20, "the unprocessed keys never ran out")
            let result = try database.batchGetItem(input, responseLimit: 3000)
            for (table, items) in result.responses {
                let got = try Self.keys(items)
                #expect(found[table, default: []].isDisjoint(with: got), "\(table) read twice")
                found[table, default: []].formUnion(got)
            }
            if let rest = result.unprocessed["Things"] {
                // What is left is re-submittable as it is: the projection stays with the keys.
                #expect(rest.projectionExpression == "pk, w")
            }
            next = result.unprocessed.isEmpty ? nil : BatchGetItemInput(requestItems: result.unprocessed)
        }
        #expect(found == ["Things": Set(keys), "Others": Set(keys)])
        // Others' items (~1 KB) fill 3000 bytes after three; Things' are projected (small).
        #expect(calls > 1)
    }
}
