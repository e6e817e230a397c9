import DynamoAPI
@testable import DynamoEngine
import Testing

/// A Query page read in several batches (more than `ReadPager`'s 128 rows) through
/// `SQLiteConnection.readInOneSnapshot`: every row once, in order, on disk and in memory, and no
/// statement or transaction left open on the connection afterwards.
@Suite struct QueryPageBatchTests {
    static func check(_ database: Database, rows: Int, forward: Bool) throws {
        try DatabaseTests.makeTable(database, sortKey: true)
        for sort in 0..<rows {
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("p"), "sk": .n(DynamoNumber(sort))]))
        }
        let result = try database.query(
            QueryInput(
                tableName: "Things", keyConditionExpression: "pk = :p", expressionAttributeValues: [":p": .s("p")]
            ).with(forward: forward))
        let sorts = try result.page.items.compactMap { json in
            try AttributeValue.decodeItem(JSONValue(parsing: json))["sk"]
        }
        let expected = (0..<rows).map { AttributeValue.n(DynamoNumber($0)) }
        #expect(sorts == (forward ? expected : expected.reversed()))
        #expect(result.page.count == rows && result.page.lastEvaluatedKey == nil)
        let open = try database.read { connection in connection.isInTransaction }
        #expect(!open)
    }

    @Test("a page of 300 rows on disk", arguments: [true, false])
    func onDisk(forward: Bool) throws {
        try DatabaseTests.withDatabaseFile { path in
            try Self.check(try Database(path: path, region: "us-east-1"), rows: 300, forward: forward)
        }
    }

    @Test("a page of 300 rows in memory", arguments: [true, false])
    func inMemory(forward: Bool) throws {
        try Self.check(try Database(path: nil, region: "us-east-1"), rows: 300, forward: forward)
    }
}

extension QueryInput {
    fileprivate func with(forward: Bool) -> QueryInput {
        var input = self
        input.scanIndexForward = forward
        return input
    }
}
