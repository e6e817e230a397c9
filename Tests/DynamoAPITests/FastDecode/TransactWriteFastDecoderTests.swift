import DynamoAPI
import Testing

@Suite("Request fast decoder: TransactWriteItems")
struct TransactWriteFastDecoderTests {
    typealias Check = RequestFastDecoderTests

    @Test("returns nil or exactly the generic decoder's input, for random bodies", arguments: [0.0, 0.03, 0.1])
    func matchesGenericDecoder(faultRate: Double) {
        var taken = 0
        var accepted = 0
        for seed in UInt64(1)...1500 {
            var generator = RequestBodyGenerator(
                random: SplitMix64(seed: seed &* 104_729 &+ UInt64(faultRate * 100)), faultRate: faultRate)
            var bodies = [Array(generator.transactWriteItems().utf8)]
            if faultRate > 0 { bodies.append(generator.damage(bodies[0])) }
            for body in bodies {
                let outcome = Check.check(TransactWriteItemsInput.self, operation: "TransactWriteItems", body, seed: seed)
                if outcome.accepted { accepted += 1 }
                if outcome.taken { taken += 1 }
            }
        }
        // Without faults every body is in a form the fast decoder knows; with faults it takes a
        // part of the bodies the generic decoder accepts (it leaves two-kind actions, for one).
        if faultRate == 0 { #expect(taken == accepted && accepted > 1000) } else { #expect(taken > 0 && taken < accepted) }
    }

    @Test("takes a transaction of every kind of action")
    func takesEveryKind() throws {
        let body = #"""
            {"TransactItems":[
              {"Put":{"TableName":"bench","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"data":{"S":"x"}},
                "ConditionExpression":"attribute_not_exists(pk)"}},
              {"Delete":{"TableName":"bench","Key":{"pk":{"S":"b"},"sk":{"N":"2"}},
                "ReturnValuesOnConditionCheckFailure":"ALL_OLD"}},
              {"ConditionCheck":{"TableName":"bench","Key":{"pk":{"S":"c"},"sk":{"N":"3"}},
                "ConditionExpression":"#n > :z","ExpressionAttributeNames":{"#n":"n"},
                "ExpressionAttributeValues":{":z":{"N":"0"}}}},
              {"Update":{"TableName":"bench","Key":{"pk":{"S":"d"},"sk":{"N":"4"}},"UpdateExpression":"SET n = :one",
                "ExpressionAttributeValues":{":one":{"N":"1"}}}}
            ],"ReturnConsumedCapacity":"TOTAL","ClientRequestToken":"token-1"}
            """#
        let bytes = Array(body.utf8)
        let decoded = try #require(Check.fast("TransactWriteItems", bytes) as? TransactWriteItemsInput)
        #expect(decoded == Check.generic(TransactWriteItemsInput.self, bytes))
        #expect(
            decoded.transactItems.map { [$0.put != nil, $0.delete != nil, $0.conditionCheck != nil, $0.update != nil] }
                == [[true, false, false, false], [false, true, false, false], [false, false, true, false], [false, false, false, true]])
        #expect(decoded.clientRequestToken == "token-1")
    }

    @Test(
        "leaves bodies the generic path or the engine must answer",
        arguments: [
            #"{"TransactItems":[]}"#,
            #"{"TransactItems":[{"Put":{"TableName":"t","Key":{}}}]}"#,
            #"{"TransactItems":[{"Delete":{"TableName":"t","Item":{}}}]}"#,
            #"{"TransactItems":[{"Put":{"TableName":"t","Item":{},"UpdateExpression":"SET a = :a"}}]}"#,
            #"{"TransactItems":[{"ConditionCheck":{"TableName":"t","Key":{}}}]}"#,
            #"{"TransactItems":[{"Update":{"TableName":"t","Key":{}}}]}"#,
            #"{"TransactItems":[{"Put":{"Item":{}}}]}"#,
            #"{"TransactItems":[{"Put":{"TableName":"t","TableName":"t","Item":{}}}]}"#,
            #"{"TransactItems":[{"Put":{"TableName":"t","Item":{}}}],"ClientRequestToken":""}"#,
            #"{"TransactItems":[{"Put":{"TableName":"t","Item":{}}}],"ClientRequestToken":"0123456789012345678901234567890123456"}"#,
            #"{"TransactItems":[{"Put":{"TableName":"t","Item":{}}}],"Unknown":1}"#,
            #"{"TransactItems":[{"Put":{"TableName":"arn:aws:dynamodb:us-east-1:1:table/t","Item":{}}}]}"#,
        ])
    func bails(body: String) {
        #expect(Check.fast("TransactWriteItems", Array(body.utf8)) == nil)
    }

    @Test("leaves a transaction of more than 100 actions")
    func bailsOverLimit() {
        let action = #"{"Put":{"TableName":"t","Item":{"pk":{"S":"k"}}}}"#
        let hundred = #"{"TransactItems":["# + Array(repeating: action, count: 100).joined(separator: ",") + "]}"
        let over = #"{"TransactItems":["# + Array(repeating: action, count: 101).joined(separator: ",") + "]}"
        #expect(Check.fast("TransactWriteItems", Array(hundred.utf8)) != nil)
        #expect(Check.fast("TransactWriteItems", Array(over.utf8)) == nil)
    }
}
