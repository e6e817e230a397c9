import DynamoAPI
import Testing

@Suite("Request fast decoder: UpdateItem")
struct UpdateItemFastDecoderTests {
    @Test("returns nil or exactly the generic decoder's input, for random bodies", arguments: [0.0, 0.05, 0.3])
    func matchesGenericDecoder(faultRate: Double) {
        var taken = 0
        var accepted = 0
        for seed in UInt64(1)...3000 {
            var generator = RequestBodyGenerator(
                random: SplitMix64(seed: seed &* 104_729 &+ UInt64(faultRate * 100)), faultRate: faultRate)
            var bodies = [Array(generator.updateItem().utf8)]
            if faultRate > 0 { bodies.append(generator.damage(bodies[0])) }
            for body in bodies {
                let outcome = RequestFastDecoderTests.check(UpdateItemInput.self, operation: "UpdateItem", body, seed: seed)
                if outcome.accepted { accepted += 1 }
                if outcome.taken { taken += 1 }
            }
        }
        // Without faults every body is in a form the fast decoder knows; with faults it takes a
        // part of the bodies the generic decoder accepts.
        if faultRate == 0 { #expect(taken == accepted && accepted > 2000) } else { #expect(taken > 0 && taken < accepted) }
    }

    @Test("takes the benchmark's UpdateItem")
    func takesBenchmarkBody() throws {
        let body =
            #"{"TableName":"bench","Key":{"pk":{"S":"p00000001"},"sk":{"N":"3"}},"#
            + ##""UpdateExpression":"SET #d = :d ADD #c :one","##
            + ##""ConditionExpression":"attribute_exists(pk) AND #n >= :zero","##
            + ##""ExpressionAttributeNames":{"#d":"data","#c":"count","#n":"n"},"##
            + #""ExpressionAttributeValues":{":d":{"S":"abc"},":one":{"N":"1"},":zero":{"N":"0"}},"ReturnValues":"NONE"}"#
        let decoded = try #require(RequestFastDecoderTests.fast("UpdateItem", Array(body.utf8)) as? UpdateItemInput)
        #expect(decoded == RequestFastDecoderTests.generic(UpdateItemInput.self, Array(body.utf8)))
        #expect(decoded.key == ["pk": .s("p00000001"), "sk": .n(try DynamoNumber(parsing: "3"))])
        #expect(decoded.updateExpression == "SET #d = :d ADD #c :one")
        #expect(decoded.expressionAttributeNames?["#c"] == "count")
        #expect(decoded.returnValues == ReturnValue.none)
    }

    @Test(
        "leaves bodies the generic path must answer",
        arguments: [
            #"{"TableName":"bench","Key":{},"ReturnValues":"UPDATE_NEW"}"#,
            #"{"TableName":"bench","Key":{},"UpdateExpression":null}"#,
            #"{"TableName":"bench","Key":{},"UpdateExpression":"a","UpdateExpression":"b"}"#,
            #"{"TableName":"bench","Key":{"a":{"S":"x"},"a":{"S":"y"}}}"#,
            #"{"TableName":"arn:aws:dynamodb:us-east-1:1:table/t","Key":{}}"#,
            #"{"TableName":"bench"}"#,
            #"{"Key":{}}"#,
        ])
    func bails(body: String) {
        #expect(RequestFastDecoderTests.fast("UpdateItem", Array(body.utf8)) == nil)
    }
}
