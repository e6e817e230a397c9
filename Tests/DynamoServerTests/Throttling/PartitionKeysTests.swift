import DynamoAPI
@testable import DynamoEngine
@testable import DynamoServer
import Logging
import Testing

/// Which partition key values a request touches, for `--throttle`'s per-partition limits.
struct PartitionKeysTests {
    private static func table() throws -> (DynamoEngine, Database, TableDefinition) {
        let engine = try DynamoEngine(storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"))
        let database = try engine.database(accessKeyID: nil, region: "us-east-1")
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [
                    AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S")),
                    AttributeDefinition(attributeName: "g", attributeType: .init(rawValue: "N")),
                ],
                tableName: "Keys", keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)],
                globalSecondaryIndexes: [
                    GlobalSecondaryIndex(
                        indexName: "ByG", keySchema: [KeySchemaElement(attributeName: "g", keyType: .hash)],
                        projection: Projection(projectionType: .init(rawValue: "ALL")))
                ],
                billingMode: .init(rawValue: "PAY_PER_REQUEST")),
            now: database.clock.now())
        return (engine, database, try database.table(named: "Keys"))
    }

    /// The touches a row reads from a body, or `nil` when the body does not decode.
    private struct Touching: OperationRowVisitor {
        let body: JSONValue

        func visit<Input, Output>(_ row: OperationRow<Input, Output>) -> OperationTouches? {
            (try? Input.decodeRequest(body)).map(row.touches)
        }
    }

    private static func touched(_ operation: String, _ body: String) throws -> [PartitionKeys.Touch] {
        let (engine, database, table) = try Self.table()
        defer { _ = engine }
        let named = try #require(EngineDispatcher.operation(for: DynamoTarget(service: .dynamoDB, operation: operation)))
        let touches = named.withRow(Touching(body: try JSONValue(parsing: body)))
        return touches?.partitions(of: table, named: "Keys", database: database) ?? []
    }

    @Test func itemOperationsBatchesAndTransactionsNameEachItemsKey() throws {
        #expect(
            try Self.touched("PutItem", #"{"TableName":"Keys","Item":{"pk":{"S":"a"},"x":{"N":"1"}}}"#)
                == [PartitionKeys.Touch(index: nil, value: #"{"S":"a"}"#)])
        #expect(
            try Self.touched(
                "BatchWriteItem", #"{"RequestItems":{"Keys":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}]}}"#
            )
            .map(\.value) == [#"{"S":"a"}"#, #"{"S":"b"}"#])
        #expect(
            try Self.touched(
                "TransactWriteItems",
                #"{"TransactItems":[{"Update":{"TableName":"Keys","Key":{"pk":{"S":"c"}},"UpdateExpression":"REMOVE x"}},{"Put":{"TableName":"Other","Item":{"pk":{"S":"d"}}}}]}"#
            )
            .map(\.value) == [#"{"S":"c"}"#])
        #expect(try Self.touched("Scan", #"{"TableName":"Keys"}"#).isEmpty)
        #expect(try Self.touched("GetItem", #"{"TableName":"Keys","Key":{"pk":{"Q":"bad"}}}"#).isEmpty)
    }

    @Test func aQueryTouchesThePartitionOfItsKeyCondition() throws {
        #expect(
            try Self.touched(
                "Query",
                ##"{"TableName":"Keys","KeyConditionExpression":"#k = :v","ExpressionAttributeNames":{"#k":"pk"},"ExpressionAttributeValues":{":v":{"S":"q"}}}"##
            )
                == [PartitionKeys.Touch(index: nil, value: #"{"S":"q"}"#)])
        #expect(
            try Self.touched(
                "Query", #"{"TableName":"Keys","IndexName":"ByG","KeyConditionExpression":"g = :v","ExpressionAttributeValues":{":v":{"N":"7"}}}"#)
                == [PartitionKeys.Touch(index: "ByG", value: #"{"N":"7"}"#)])
        #expect(try Self.touched("Query", #"{"TableName":"Keys","KeyConditionExpression":"pk = = :v"}"#).isEmpty)
    }
}
