import DynamoAPI
@testable import DynamoEngine
import Testing

/// BatchWriteItem at the engine: every request is checked before anything is written, then all
/// writes commit together (so nothing is ever left unprocessed), with capacity per table.
@Suite struct BatchWriteTests {
    /// A database with the tables `Things` and `Others` (partition key `pk`, a String).
    static func database() throws -> Database {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        try DatabaseTests.makeTable(database, name: "Others")
        return database
    }

    /// A request decoded as the server decodes it.
    static func request(_ body: String) throws -> BatchWriteItemInput {
        try BatchWriteItemInput.decodeRequest(JSONValue(parsing: body))
    }

    /// `{"PutRequest":{"Item":{"pk":{"S":key},…}}}` with `extra` as a String attribute `v`.
    static func put(_ key: String, value: String = "v") -> String {
        #"{"PutRequest":{"Item":{"pk":{"S":"\#(key)"},"v":{"S":"\#(value)"}}}}"#
    }

    static func delete(_ key: String) -> String {
        #"{"DeleteRequest":{"Key":{"pk":{"S":"\#(key)"}}}}"#
    }

    /// The stored item of `table` under `key`, if any.
    static func stored(_ database: Database, _ table: String, _ key: String) throws -> Item? {
        try database.getItem(GetItemInput(tableName: table, key: ["pk": .s(key)])).json
            .map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
    }

    @Test("puts and deletes over two tables are all written, with capacity per table")
    func writesOverTables() throws {
        let database = try Self.database()
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("old")]))
        let result = try database.batchWriteItem(
            Self.request(
                #"{"RequestItems":{"Things":[\#(Self.put("a")),\#(Self.delete("old")),\#(Self.delete("never"))],"Others":[\#(Self.put("b", value: "w"))]}}"#
            ))
        #expect(try Self.stored(database, "Things", "a") == ["pk": .s("a"), "v": .s("v")])
        #expect(try Self.stored(database, "Things", "old") == nil)
        #expect(try Self.stored(database, "Others", "b") == ["pk": .s("b"), "v": .s("w")])
        // One unit per write of an item up to 1 KB, a delete of a missing item included.
        #expect(result.capacity == ["Things": ConsumedUnits(table: 3), "Others": ConsumedUnits(table: 1)])
        #expect(try database.describeTable(named: "Things").itemCount == 1)
    }

    @Test("more than 25 writes over all tables are refused, and nothing is written")
    func tooManyWrites() throws {
        let database = try Self.database()
        let things = (0..<13).map { Self.put("t\($0)") }.joined(separator: ",")
        let others = (0..<13).map { Self.put("o\($0)") }.joined(separator: ",")
        let body = #"{"RequestItems":{"Things":[\#(things)],"Others":[\#(others)]}}"#
        #expect(throws: DynamoError.validation("Too many items requested for the BatchWriteItem call")) {
            try database.batchWriteItem(Self.request(body))
        }
        #expect(try database.describeTable(named: "Things").itemCount == 0)
        #expect(try database.describeTable(named: "Others").itemCount == 0)
        // Exactly 25 is allowed.
        let twelve = (0..<12).map { Self.put("o\($0)") }.joined(separator: ",")
        _ = try database.batchWriteItem(Self.request(#"{"RequestItems":{"Things":[\#(things)],"Others":[\#(twelve)]}}"#))
        #expect(try database.describeTable(named: "Things").itemCount == 13)
        #expect(try database.describeTable(named: "Others").itemCount == 12)
    }

    @Test("two writes of one key in a table are refused; the same key in two tables is not")
    func duplicateKeys() throws {
        let database = try Self.database()
        let duplicates = DynamoError.validation("Provided list of item keys contains duplicates")
        #expect(throws: duplicates) {
            try database.batchWriteItem(
                Self.request(#"{"RequestItems":{"Things":[\#(Self.put("x")),\#(Self.put("a")),\#(Self.delete("a"))]}}"#))
        }
        #expect(throws: duplicates) {
            try database.batchWriteItem(
                Self.request(#"{"RequestItems":{"Things":[\#(Self.put("a", value: "1")),\#(Self.put("a", value: "2"))]}}"#))
        }
        #expect(try Self.stored(database, "Things", "x") == nil)
        #expect(try Self.stored(database, "Things", "a") == nil)
        _ = try database.batchWriteItem(
            Self.request(#"{"RequestItems":{"Things":[\#(Self.put("a"))],"Others":[\#(Self.put("a"))]}}"#))
        #expect(try Self.stored(database, "Things", "a") != nil)
        #expect(try Self.stored(database, "Others", "a") != nil)
    }

    @Test("a bad request anywhere in the batch fails it before any write")
    func badRequestWritesNothing() throws {
        let database = try Self.database()
        let large = String(repeating: "x", count: 400 * 1024)
        // `Others` is checked before `Things` (tables in name order): the valid put on Others
        // must not be written when Things' item is too large.
        #expect(throws: DynamoError.validation("Item size has exceeded the maximum allowed size")) {
            try database.batchWriteItem(
                Self.request(#"{"RequestItems":{"Others":[\#(Self.put("ok"))],"Things":[\#(Self.put("big", value: large))]}}"#))
        }
        #expect(try Self.stored(database, "Others", "ok") == nil)
        #expect(throws: DynamoError.tableNotFound()) {
            try database.batchWriteItem(Self.request(#"{"RequestItems":{"Others":[\#(Self.put("ok"))],"Missing":[\#(Self.put("m"))]}}"#))
        }
        #expect(try Self.stored(database, "Others", "ok") == nil)
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("random batches leave exactly what a model of them holds", arguments: [UInt64(3), 77])
    func randomBatches(seed: UInt64) throws {
        let database = try Self.database()
        var random = SeededRandom(seed: seed)
        var model: [String: [String: String]] = ["Things": [:], "Others": [:]]
        for round in 0..<60 {
            var requests: [String: [String]] = [:]
            for table in ["Things", "Others"] {
                // Distinct keys per table, so the batch is valid.
                let keys = Array((0..<20).map { "k\($0)" }.shuffled(using: &random).prefix(Int.random(in: 0...12, using: &random)))
                for key in keys {
                    if Bool.random(using: &random) {
                        let value = "r\(round)"
                        requests[table, default: []].append(Self.put(key, value: value))
                        model[table]![key] = value
                    } else {
                        requests[table, default: []].append(Self.delete(key))
                        model[table]![key] = nil
                    }
                }
            }
            let blocks = requests.filter { !$0.value.isEmpty }.map { #""\#($0.key)":[\#($0.value.joined(separator: ","))]"# }
            guard !blocks.isEmpty else { continue }
            _ = try database.batchWriteItem(Self.request(#"{"RequestItems":{\#(blocks.joined(separator: ","))}}"#))
        }
        for table in ["Things", "Others"] {
            for key in (0..<20).map({ "k\($0)" }) {
                let expected: Item? = model[table]![key].map { ["pk": .s(key), "v": .s($0)] }
                #expect(try Self.stored(database, table, key) == expected, "\(table) \(key)")
            }
            #expect(try database.describeTable(named: table).itemCount == Int64(model[table]!.count))
        }
        #expect(try database.checkInvariants().violations == [])
    }
}
