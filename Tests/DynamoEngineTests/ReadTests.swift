import DynamoAPI
@testable import DynamoEngine
import DynamoExpressions
import Testing

@Suite("Query and Scan")
struct ReadTests {
    /// A table `Things` (pk S, sk N) with partitions a, b, c of sort keys 0..<10.
    static func loadedDatabase() throws -> Database {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database, sortKey: true)
        for partition in ["a", "b", "c"] {
            for sort in 0..<10 {
                _ = try database.putItem(
                    PutItemInput(
                        tableName: "Things", item: ["pk": .s(partition), "sk": .n(DynamoNumber(sort))]))
            }
        }
        return database
    }

    @Test(
        "a query reads one index range: no table scan, no temporary sort",
        arguments: [
            (nil, nil, false, true), (true, nil, false, true), (nil, false, true, false), (true, true, true, false),
        ] as [(Bool?, Bool?, Bool, Bool)])
    func queryPlanUsesThePrimaryKey(lower: Bool?, upper: Bool?, afterStart: Bool, forward: Bool) throws {
        let database = try Self.loadedDatabase()
        let table = try database.table(named: "Things")
        let plan = try database.read { connection in
            let store = ItemStore(table: table, connection: connection)
            let statement = try connection.statement(
                "EXPLAIN QUERY PLAN " + store.querySQL(lower: lower, upper: upper, afterStart: afterStart, forward: forward))
            var details: [String] = []
            while try statement.step() { details.append(statement.text(3)) }
            return details.joined(separator: "\n")
        }
        #expect(plan.contains("SEARCH"), "\(plan)")
        #expect(plan.contains("PRIMARY KEY"), "\(plan)")
        #expect(!plan.contains("SCAN"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test("queries return sort-key order, reversed on request, paged by Limit")
    func queryOrderAndPaging() throws {
        let database = try Self.loadedDatabase()
        let condition = KeyConditionSpec(
            partitionName: "pk", partitionValue: .s("b"), sortName: "sk",
            sortCondition: .greaterOrEqual(.n(DynamoNumber(3))))
        var seen: [AttributeValue] = []
        var start: Item?
        repeat {
            let page = try database.query(
                table: "Things", keyCondition: condition, forward: false,
                options: ReadOptions(limit: 3, exclusiveStartKey: start))
            seen += try page.items.map { try AttributeValue.decodeItem(JSONValue(parsing: $0))["sk"]! }
            start = page.lastEvaluatedKey
        } while start != nil
        #expect(seen == (3..<10).reversed().map { .n(DynamoNumber($0)) })
    }

    @Test("parallel scan segments are disjoint and cover every item", arguments: [1, 2, 3, 4, 16])
    func segmentsCoverTheTable(total: Int) throws {
        let database = try Self.loadedDatabase()
        var keys: [Item] = []
        for segment in 0..<total {
            var start: Item?
            repeat {
                let page = try database.scan(
                    table: "Things", segment: total > 1 ? (segment, total) : nil,
                    options: ReadOptions(limit: 4, exclusiveStartKey: start))
                keys += try page.items.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
                start = page.lastEvaluatedKey
            } while start != nil
        }
        #expect(keys.count == 30)
        #expect(Set(keys).count == 30)
    }

    @Test("segment hash ranges tile the hash space")
    func segmentRanges() {
        for total in [2, 3, 7, 1000] {
            var previousHigh: Int64?
            for segment in 0..<total {
                let (low, high) = Database.hashRange(segment: (segment, total))
                if let previousHigh { #expect(low == previousHigh + 1) } else { #expect(low == Int64.min) }
                #expect(low <= high)
                previousHigh = high
            }
            #expect(previousHigh == Int64.max)
        }
    }

    @Test("begins_with on binary sort keys uses the prefix's successor")
    func prefixSuccessor() {
        #expect(TableDefinition.prefixSuccessor([0x61, 0x62]) == [0x61, 0x63])
        #expect(TableDefinition.prefixSuccessor([0x61, 0xFF]) == [0x62])
        #expect(TableDefinition.prefixSuccessor([0xFF, 0xFF]) == nil)
    }
}
