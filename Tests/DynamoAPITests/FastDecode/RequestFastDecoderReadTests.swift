import DynamoAPI
import Testing

@Suite("Request fast decoder: GetItem and Query")
struct RequestFastDecoderReadTests {
    typealias Check = RequestFastDecoderTests

    @Test("returns nil or exactly the generic decoder's input, for random bodies", arguments: [0.0, 0.05, 0.3])
    func matchesGenericDecoder(faultRate: Double) {
        var taken = 0
        var accepted = 0
        for seed in UInt64(1)...1500 {
            var generator = RequestBodyGenerator(
                random: SplitMix64(seed: seed &* 104_729 &+ UInt64(faultRate * 100)), faultRate: faultRate)
            var bodies: [(String, [UInt8])] = [
                ("GetItem", Array(generator.getItem().utf8)), ("Query", Array(generator.query().utf8)),
            ]
            if faultRate > 0 { bodies += bodies.map { ($0.0, generator.damage($0.1)) } }
            for (operation, body) in bodies {
                let outcome =
                    operation == "GetItem"
                    ? Check.check(GetItemInput.self, operation: operation, body, seed: seed)
                    : Check.check(QueryInput.self, operation: operation, body, seed: seed)
                if outcome.accepted { accepted += 1 }
                if outcome.taken { taken += 1 }
            }
        }
        // As for the write shapes: without faults every body the generic decoder accepts is
        // taken; with faults, a part of them.
        if faultRate == 0 { #expect(taken == accepted && accepted > 2000) } else { #expect(taken > 0 && taken < accepted) }
    }

    @Test("takes the common GetItem and Query bodies")
    func takesCommonShapes() throws {
        let get = #"{"TableName":"bench","Key":{"pk":{"S":"p00000001"},"sk":{"N":"3"}},"ConsistentRead":true}"#
        let getInput = try #require(Check.fast("GetItem", Array(get.utf8)) as? GetItemInput)
        #expect(getInput == Check.generic(GetItemInput.self, Array(get.utf8)))
        let three = try DynamoNumber(parsing: "3")
        #expect(getInput.consistentRead == true && getInput.key["sk"] == .n(three))

        let legacy = #"{"TableName":"bench","KeyConditions":{"pk":{"AttributeValueList":[{"S":"p1"}],"ComparisonOperator":"EQ"}}}"#
        let legacyInput = try #require(Check.fast("Query", Array(legacy.utf8)) as? QueryInput)
        #expect(legacyInput == Check.generic(QueryInput.self, Array(legacy.utf8)))
        #expect(legacyInput.keyConditions?["pk"]?.comparisonOperator == .eq)

        let expression =
            ##"{"TableName":"bench","IndexName":"by_n","KeyConditionExpression":"#p = :p AND sk BETWEEN :a AND :b","##
            + ##""ExpressionAttributeNames":{"#p":"pk"},"ExpressionAttributeValues":{":p":{"S":"x"},":a":{"N":"1"},"##
            + #"":b":{"N":"9"}},"Limit":25,"ScanIndexForward":false,"Select":"COUNT","#
            + #""ExclusiveStartKey":{"pk":{"S":"x"},"sk":{"N":"2"}},"ReturnConsumedCapacity":"INDEXES"}"#
        let input = try #require(Check.fast("Query", Array(expression.utf8)) as? QueryInput)
        #expect(input == Check.generic(QueryInput.self, Array(expression.utf8)))
        #expect(input.limit == 25 && input.scanIndexForward == false && input.select == .count)
    }

    @Test(
        "leaves bodies the generic path must answer",
        arguments: [
            #"{"TableName":"bench","Key":{"pk":{"S":"x"}},"ConsistentRead":"true"}"#,
            #"{"TableName":"bench","Key":{"pk":{"S":"x"}},"AttributesToGet":[]}"#,
            #"{"TableName":"bench","Key":{"pk":{"S":"x"}},"ProjectionExpression":null}"#,
            #"{"TableName":"bench","Key":null}"#,
            #"{"Key":{"pk":{"S":"x"}}}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Limit":0}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Limit":-1}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Limit":2147483648}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Limit":2.5}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Limit":1e1}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Limit":010}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","IndexName":"ab"}"#,
            #"{"TableName":"bench","KeyConditionExpression":"pk = :p","Select":"ALL"}"#,
            #"{"TableName":"bench","KeyConditions":{"pk":{"AttributeValueList":[{"S":"p"}]}}}"#,
            #"{"TableName":"bench","KeyConditions":{"pk":{"ComparisonOperator":"EQ","ComparisonOperator":"EQ"}}}"#,
            #"{"TableName":"bench","KeyConditions":{"pk":{"ComparisonOperator":"EQUALS"}}}"#,
            #"{"TableName":"bench","KeyConditions":{"pk":{"ComparisonOperator":"EQ","Exists":true}}}"#,
            #"{"TableName":"bench","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[null]}}}"#,
        ])
    func bails(body: String) {
        let operation = body.contains("\"Key\"") ? "GetItem" : "Query"
        #expect(Check.fast(operation, Array(body.utf8)) == nil)
    }
}
