import DynamoAPI
import Testing

/// The generated readers of every operation against the generic decoder, on bodies written from
/// each input's schema (``SchemaBodyGenerator``).
@Suite("Request fast decoder: every operation")
struct EveryOperationFastDecoderTests {
    typealias Check = RequestFastDecoderTests

    /// Every operation of both models with its input type.
    static let operations: [(name: String, input: any DynamoShape.Type)] =
        DynamoOperation.allCases.map { ($0.rawValue, $0.inputType) }
        + DynamoStreamsOperation.allCases.map { ($0.rawValue, $0.inputType) }

    /// FNV-1a of an operation's name.
    static func nameSeed(_ name: String) -> UInt64 {
        name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    @Test("every operation has a schema and a reader")
    func coversEveryOperation() {
        #expect(Set(Self.operations.map(\.name)) == Set(SchemaBodyGenerator.schemas.operations.keys))
        #expect(Set(Self.operations.map(\.name)) == RequestFastDecoder.operations)
    }

    @Test(
        "returns nil or exactly the generic decoder's input, for random bodies of every operation",
        arguments: [0.0, 0.02, 0.1, 0.3])
    func matchesGenericDecoder(faultRate: Double) {
        var taken: [String: Int] = [:]
        for operation in Self.operations {
            let shape = SchemaBodyGenerator.schemas.operations[operation.name] ?? ""
            for round in UInt64(1)...80 {
                // Seeded by the operation's name, so a model that adds operations keeps each one's bodies.
                let seed = Self.nameSeed(operation.name) &+ round &* 7919 &+ UInt64(faultRate * 1000)
                var generator = SchemaBodyGenerator(seed: seed, faultRate: faultRate, shapes: SchemaBodyGenerator.schemas.shapes)
                let body = Array(generator.body(shape).utf8)
                if Check.check(operation.input, operation: operation.name, body, seed: seed).taken {
                    taken[operation.name, default: 0] += 1
                }
            }
        }
        if faultRate == 0 {
            // Valid bodies of the hot operations and of other common ones take the fast path.
            for name in [
                "PutItem", "BatchWriteItem", "UpdateItem", "TransactWriteItems", "GetItem", "Query", "DescribeTable",
                "DeleteItem", "Scan", "BatchGetItem", "TransactGetItems",
            ] {
                #expect(taken[name, default: 0] > 10, "\(name) taken \(taken[name, default: 0]) times of 80")
            }
        }
    }

    @Test(
        "takes typical bodies",
        arguments: [
            ("PutItem", #"{"TableName":"t","Item":{"pk":{"S":"a"},"n":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk)"}"#),
            ("BatchWriteItem", #"{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}]}}"#),
            (
                "UpdateItem",
                ##"{"TableName":"t","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET #n = :v","ExpressionAttributeNames":{"#n":"n"},"ExpressionAttributeValues":{":v":{"N":"2"}},"ReturnValues":"ALL_NEW"}"##
            ),
            (
                "TransactWriteItems",
                #"{"TransactItems":[{"Put":{"TableName":"t","Item":{"pk":{"S":"a"}}}},{"Update":{"TableName":"t","Key":{"pk":{"S":"b"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}},{"ConditionCheck":{"TableName":"t","Key":{"pk":{"S":"c"}},"ConditionExpression":"attribute_exists(pk)"}},{"Delete":{"TableName":"t","Key":{"pk":{"S":"d"}}}}],"ClientRequestToken":"token-1"}"#
            ),
            ("GetItem", #"{"TableName":"t","Key":{"pk":{"S":"a"}},"ConsistentRead":true,"ProjectionExpression":"pk, v"}"#),
            (
                "Query",
                #"{"TableName":"t","IndexName":"by-v","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":10,"ScanIndexForward":false}"#
            ),
            ("Query", #"{"TableName":"t","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"Select":"COUNT"}"#),
            ("DescribeTable", #"{"TableName":"t"}"#),
            ("DeleteItem", #"{"TableName":"t","Key":{"pk":{"S":"a"}},"ReturnValues":"ALL_OLD"}"#),
            ("Scan", #"{"TableName":"t","FilterExpression":"v > :v","ExpressionAttributeValues":{":v":{"N":"1"}},"Limit":100}"#),
            ("BatchGetItem", #"{"RequestItems":{"t":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"b"}}],"ConsistentRead":true}}}"#),
            ("TransactGetItems", #"{"TransactItems":[{"Get":{"TableName":"t","Key":{"pk":{"S":"a"}}}}]}"#),
            ("ListTables", #"{"Limit":10,"ExclusiveStartTableName":"abc"}"#),
            (
                "CreateTable",
                #"{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}"#
            ),
            ("DescribeStream", #"{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000","Limit":10}"#),
        ])
    func takesTypicalBodies(operation: String, body: String) throws {
        let input = try #require(Self.operations.first { $0.name == operation }?.input)
        let bytes = Array(body.utf8)
        #expect(Check.fast(operation, bytes) != nil, "not taken: \(body)")
        #expect(Check.check(input, operation: operation, bytes, seed: 0).accepted)
    }

    /// Bodies the generic decoder returns without an error although the engine refuses them
    /// (legacy members beside expressions, an action of no kind or of two): the readers take
    /// them, and hand the engine the same input.
    @Test(
        "takes what the generic decoder accepts and the engine words",
        arguments: [
            ("TransactWriteItems", #"{"TransactItems":[{}]}"#),
            ("TransactWriteItems", #"{"TransactItems":[{"Put":{"TableName":"t","Item":{}},"Delete":{"TableName":"t","Key":{}}}]}"#),
            ("BatchWriteItem", #"{"RequestItems":{"t":[{"PutRequest":{"Item":{}},"DeleteRequest":{"Key":{}}}]}}"#),
            ("UpdateItem", #"{"TableName":"bench","Key":{"a":{"S":"x"}},"AttributeUpdates":{}}"#),
            ("UpdateItem", #"{"TableName":"bench","Key":{"a":{"S":"x"}},"Expected":{}}"#),
            ("UpdateItem", #"{"TableName":"bench","Key":{"a":{"S":"x"}},"ConditionalOperator":"AND"}"#),
            ("Query", #"{"TableName":"bench","KeyConditionExpression":"pk = :p","QueryFilter":{}}"#),
            ("Query", #"{"TableName":"bench","KeyConditionExpression":"pk = :p","ConditionalOperator":"AND"}"#),
        ])
    func takesWhatTheEngineWords(operation: String, body: String) throws {
        let input = try #require(Self.operations.first { $0.name == operation }?.input)
        let outcome = Check.check(input, operation: operation, Array(body.utf8), seed: 0)
        #expect(outcome.accepted && outcome.taken)
    }

    @Test(
        "leaves bodies the generic path must answer",
        arguments: [
            ("DescribeTable", #"{"TableName":null}"#),
            ("DescribeTable", #"{}"#),
            ("DescribeTable", #"{"TableName":"t","Extra":1}"#),
            (
                "CreateTable",
                #"{"TableName":"ab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}"#
            ),
            ("ListTables", #"{"Limit":101}"#),
            ("ListTables", #"{"Limit":0}"#),
            ("Scan", #"{"TableName":"t","Segment":1,"TotalSegments":2}"#),
            ("BatchGetItem", #"{"RequestItems":{}}"#),
            ("TransactWriteItems", #"{"TransactItems":[]}"#),
            ("TransactWriteItems", #"{"TransactItems":[{"Put":{"TableName":"t","Item":{}}}],"ClientRequestToken":""}"#),
            ("Query", #"{"TableName":"t","Select":"SOME"}"#),
            ("Query", #"{"TableName":"t","IndexName":"ab"}"#),
            ("GetItem", #"{"TableName":"t","Key":{},"AttributesToGet":[]}"#),
        ])
    func bails(operation: String, body: String) {
        #expect(Check.fast(operation, Array(body.utf8)) == nil)
    }
}
