import DynamoAPI
import Testing

@Suite("Request fast decoder")
struct RequestFastDecoderTests {
    /// The generic path's answer for a body: the decoded input, or `nil` for any error.
    static func generic<Input: DynamoShape>(_: Input.Type, _ body: [UInt8]) -> Input? {
        guard let json = try? JSONValue(parsing: body), json != .null else { return nil }
        return try? Input.decodeRequest(json)
    }

    static func fast(_ operation: String, _ body: [UInt8]) -> (any DynamoShape)? {
        body.withUnsafeBytes { RequestFastDecoder.decode(operation: operation, bytes: $0) }
    }

    /// The shape's JSON with object members sorted, compared as bytes: stricter than `==`, which
    /// compares strings by canonical equivalence (`é` and `e` + U+0301 are equal) and sets
    /// regardless of order.
    static func exactBytes(_ shape: any DynamoShape) -> [UInt8] {
        Array(((try? JSONValue(parsing: shape.jsonBytes)) ?? .null).serialized.utf8)
    }

    /// Checks one body; returns whether the generic decoder accepted it and whether the fast
    /// decoder took it.
    static func check<Input: DynamoShape>(
        _ type: Input.Type, operation: String, _ body: [UInt8], seed: UInt64
    ) -> (accepted: Bool, taken: Bool) {
        let expected = generic(type, body)
        guard let decoded = fast(operation, body) else { return (expected != nil, false) }
        let text = String(decoding: body, as: UTF8.self)
        guard let expected else {
            Issue.record("seed \(seed): the fast decoder took a body the generic decoder refuses: \(text)")
            return (false, true)
        }
        #expect(decoded as? Input == expected, "seed \(seed): \(text)")
        #expect(exactBytes(decoded) == exactBytes(expected), "seed \(seed): \(text)")
        return (true, true)
    }

    @Test("returns nil or exactly the generic decoder's input, for random bodies", arguments: [0.0, 0.05, 0.3])
    func matchesGenericDecoder(faultRate: Double) {
        var taken = 0
        var accepted = 0
        for seed in UInt64(1)...1500 {
            var generator = RequestBodyGenerator(random: SplitMix64(seed: seed &* 7919 &+ UInt64(faultRate * 100)), faultRate: faultRate)
            var bodies: [(String, [UInt8])] = [
                ("PutItem", Array(generator.putItem().utf8)), ("BatchWriteItem", Array(generator.batchWriteItem().utf8)),
            ]
            if faultRate > 0 { bodies += bodies.map { ($0.0, generator.damage($0.1)) } }
            for (operation, body) in bodies {
                let outcome =
                    operation == "PutItem"
                    ? Self.check(PutItemInput.self, operation: operation, body, seed: seed)
                    : Self.check(BatchWriteItemInput.self, operation: operation, body, seed: seed)
                if outcome.accepted { accepted += 1 }
                if outcome.taken { taken += 1 }
            }
        }
        // Without faults the generator writes only forms the fast decoder knows: it must take
        // every body the generic decoder accepts (a set may still repeat a value, `1` and `1e0`).
        // With faults, the bodies it takes are a part of those the generic decoder accepts.
        if faultRate == 0 { #expect(taken == accepted && accepted > 2000) } else { #expect(taken > 0 && taken < accepted) }
    }

    @Test("takes the common PutItem and a 25-item BatchWriteItem")
    func takesCommonShapes() throws {
        let item =
            #"{"pk":{"S":"user#42"},"sk":{"N":"17"},"name":{"S":"Ada \u00e9"},"tags":{"SS":["a","b"]},"#
            + #""score":{"N":"-1.50"},"ok":{"BOOL":true},"none":{"NULL":true},"blob":{"B":"AQID"},"#
            + #""nested":{"M":{"l":{"L":[{"N":"1"},{"S":"x"}]},"ns":{"NS":["1","2.5"]},"bs":{"BS":["AA=="]}}}}"#
        let put = #"{"TableName":"bench","Item":"# + item + #","ReturnConsumedCapacity":"TOTAL"}"#
        let decoded = try #require(Self.fast("PutItem", Array(put.utf8)) as? PutItemInput)
        #expect(decoded == Self.generic(PutItemInput.self, Array(put.utf8)))
        #expect(decoded.item["score"] == .n(try DynamoNumber(parsing: "-1.5")))

        let requests = (0..<25).map { #"{"PutRequest":{"Item":{"pk":{"S":"k\#($0)"},"v":{"N":"\#($0)"}}}}"# }
        let batch = #"{"RequestItems":{"bench":["# + requests.joined(separator: ",") + "]}}"
        let batchInput = try #require(Self.fast("BatchWriteItem", Array(batch.utf8)) as? BatchWriteItemInput)
        #expect(batchInput == Self.generic(BatchWriteItemInput.self, Array(batch.utf8)))
        #expect(batchInput.requestItems["bench"]?.count == 25)
    }

    @Test(
        "leaves bodies the generic path must answer",
        arguments: [
            #"{"TableName":"bench","Item":{"a":{"S":"x"}},"Unknown":1}"#,
            #"{"TableName":"bench","TableName":"bench","Item":{}}"#,
            #"{"TableName":"bench","Item":{"a":{"SS":[]}}}"#,
            #"{"TableName":"bench","Item":{"a":{"SS":["x","x"]}}}"#,
            #"{"TableName":"bench","Item":{"a":{"NS":["1","1.0"]}}}"#,
            #"{"TableName":"bench","Item":{"a":{"N":"1e126"}}}"#,
            #"{"TableName":"bench","Item":{"a":{"S":"x","N":null}}}"#,
            #"{"TableName":"bench","Item":{"a":{"S":"x"},"a":{"S":"y"}}}"#,
            #"{"TableName":"b c","Item":{}}"#,
            #"{"TableName":"bench","Item":{},"ReturnValues":"ALL"}"#,
            #"{"TableName":"bench","Item":{}} x"#,
            #"{"Item":{}}"#,
            #"{"RequestItems":{}}"#,
            #"{"RequestItems":{"t":[]}}"#,
        ])
    func bails(body: String) {
        let operation = body.contains("RequestItems") ? "BatchWriteItem" : "PutItem"
        #expect(Self.fast(operation, Array(body.utf8)) == nil)
    }
}
