import DynamoAPI
import Testing
@testable import DynamoClient

/// `AnswerDecoder` reads item members from bytes and gives what the generic path (a `JSONValue`
/// tree, then the shape's decoder) gives: the same output, or the same error.
struct AnswerDecoderTests {
    /// An example answer, whether the byte reader reads it itself (`fast`) or leaves it to the
    /// generic path.
    struct Example: CustomTestStringConvertible, Sendable {
        var body: String
        var fast: Bool
        var testDescription: String { body }
    }

    static let queryExamples: [Example] = [
        Example(body: #"{"Items":[{"pk":{"S":"p1"},"sk":{"N":"1"}}],"Count":1,"ScannedCount":1}"#, fast: true),
        Example(body: "{ \"Items\" :\n[ {\"pk\"\t: { \"S\" : \"p1\" } } ] , \"Count\" : 1 }\r\n", fast: true),
        Example(body: #"{"Items":[],"Count":0,"ScannedCount":0}"#, fast: true),
        Example(body: #"{"Items":[{}],"Count":1}"#, fast: true),
        Example(
            body: #"{"Items":[{"s":{"S":""},"n":{"N":"-0.50"},"b":{"B":"AAEC"},"ss":{"SS":["a",""]},"#
                + #""ns":{"NS":["1","1e3"]},"bs":{"BS":["AA==",""]},"m":{"M":{"x":{"NULL":true}}},"#
                + #""l":{"L":[{"BOOL":false},{"L":[]},{"M":{}}]},"t":{"BOOL":true}}]}"#,
            fast: true),
        Example(body: #"{"Items":[{"\u00e9\"\\\/\n\ud83d\ude00":{"S":"caf\u00E9 \"q\" \\ \t"}}]}"#, fast: true),
        Example(body: #"{"Items":[{"日本":{"S":"é😀\u2028"}}]}"#, fast: true),
        // A repeated name is left to the generic path (which keeps the last value), and so are
        // canonically equivalent names, one key in Swift (the first spelling kept).
        Example(body: #"{"Items":[{"k":{"S":"é"},"k":{"S":"second"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"é":{"S":"1"},"e\u0301":{"S":"2"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"M":{"K":{"S":"1"},"\u212A":{"S":"2"}}}}]}"#, fast: false),
        Example(body: #"{"Items":null,"Count":0}"#, fast: true),
        Example(body: #"{"Items":[{"a":{"S":"1"}}],"Items":null}"#, fast: true),
        Example(body: #"{"Items":null,"Items":[{"a":{"S":"1"}}]}"#, fast: true),
        Example(
            body: #"{"Count":2,"LastEvaluatedKey":{"pk":{"S":"p"},"sk":{"N":"9"}},"#
                + #""ConsumedCapacity":{"TableName":"bench","CapacityUnits":0.5},"Unknown":[null,{"a":"\u0041"}]}"#,
            fast: true),
        // Left to the generic path, which decodes them or refuses them.
        Example(body: #"{"Items":[{"a":{"S":"x","N":null}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":null,"b":{"S":"x"}}]}"#, fast: false),
        Example(body: #"{"Items":[null,{"b":{"S":"x"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"\u0053":"x"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"SS":[]}}]}"#, fast: false),
        Example(body: #"{"Items":[{"z":{"NULL":false}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"SS":["x","x"]}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"NS":["1","1.0"]}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"N":"abc"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"N":"1e126"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"N":5}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"B":"not base64"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"X":"1"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"S":"x","N":"1"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"BOOL":"true"}}]}"#, fast: false),
        Example(body: #"{"Items":[{"a":{"S":"\ud800"}}]}"#, fast: false),
        Example(body: "{\"Items\":[{\"a\":{\"S\":\"tab\there\"}}]}", fast: false),
        Example(body: #"{"Items":{"a":{"S":"x"}}}"#, fast: false),
        Example(body: #"{"Items":"none"}"#, fast: false),
        Example(body: #"{"Count":"1"}"#, fast: false),
        Example(body: #"{"Items":[]} x"#, fast: false),
        Example(body: #"{"Items":[{"a":{"S":"x"}}]"#, fast: false),
        Example(body: #"{"Items":[{"a":{"S":"x"}},]}"#, fast: false),
        Example(body: #"[]"#, fast: false),
        Example(body: #"null"#, fast: false),
        Example(body: "", fast: false),
        Example(
            body: #"{"Items":[{"a":"# + String(repeating: #"{"L":["#, count: 40) + #"{"S":"deep"}"#
                + String(repeating: "]}", count: 40) + "}]}",
            fast: true),
        // As deep as the reader goes (`JSONByteReader.maximumValueDepth` attribute values).
        Example(
            body: #"{"Items":[{"a":"# + String(repeating: #"{"M":{"m":"#, count: 99) + #"{"S":"deep"}"#
                + String(repeating: "}}", count: 99) + "}]}",
            fast: true),
        // Deeper than the reader goes, but not than the parser.
        Example(
            body: #"{"Items":[{"a":"# + String(repeating: #"{"L":["#, count: 100) + #"{"S":"deep"}"#
                + String(repeating: "]}", count: 100) + "}]}",
            fast: false),
        Example(
            body: #"{"Items":[{"a":"# + String(repeating: #"{"L":["#, count: 130) + #"{"S":"deeper"}"#
                + String(repeating: "]}", count: 130) + "}]}",
            fast: false),
    ]

    @Test(arguments: queryExamples)
    func queryExample(_ example: Example) {
        let body = Array(example.body.utf8)
        #expect(Self.outcome(QueryOutput.self, body, generic: false) == Self.outcome(QueryOutput.self, body, generic: true))
        var json: JSONValue?
        let read = AnswerDecoder.readingItems(QueryOutput.self, from: body, json: &json)
        #expect((read != nil) == example.fast)
    }

    @Test func itemsAreTheGenericPathsValues() throws {
        let body = Array(#"{"Items":[{"pk":{"S":"p1"},"n":{"N":"0001.20"},"s":{"SS":["b","a"]}}],"Count":1}"#.utf8)
        var json: JSONValue?
        let output = try AnswerDecoder.decode(QueryOutput.self, from: body, json: &json)
        #expect(output.count == 1)
        #expect(output.items == [["pk": .s("p1"), "n": .n(try DynamoNumber(parsing: "1.2")), "s": .ss(["b", "a"])]])
        #expect(json == .object(["Count": .number("1")]))
    }

    @Test func otherOutputsWithItems() {
        let cases: [(String, (([UInt8], Bool) -> String))] = [
            (#"{"Item":{"pk":{"S":"p"},"v":{"M":{"a":{"L":[{"N":"1"}]}}}}}"#, { Self.outcome(GetItemOutput.self, $0, generic: $1) }),
            (#"{}"#, { Self.outcome(GetItemOutput.self, $0, generic: $1) }),
            (
                #"{"Attributes":{"n":{"N":"2"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":1}}"#,
                { Self.outcome(UpdateItemOutput.self, $0, generic: $1) }
            ),
            (#"{"Attributes":{"n":{"N":"2"}}}"#, { Self.outcome(PutItemOutput.self, $0, generic: $1) }),
            (#"{"Attributes":{"n":{"N":"2"}}}"#, { Self.outcome(DeleteItemOutput.self, $0, generic: $1) }),
            (
                #"{"Items":[{"a":{"S":"b"}}],"LastEvaluatedKey":{"a":{"S":"b"}},"Count":1}"#,
                { Self.outcome(ScanOutput.self, $0, generic: $1) }
            ),
            (#"{"Items":[{"a":{"S":"b"}}],"NextToken":"t"}"#, { Self.outcome(ExecuteStatementOutput.self, $0, generic: $1) }),
            (
                #"{"Responses":{"t1":[{"a":{"S":"b"}}],"t2":[]},"UnprocessedKeys":{"t3":{"Keys":[{"a":{"S":"c"}}]}}}"#,
                { Self.outcome(BatchGetItemOutput.self, $0, generic: $1) }
            ),
            (#"{"Responses":{"t1":null}}"#, { Self.outcome(BatchGetItemOutput.self, $0, generic: $1) }),
            (#"{"Responses":{"t1":[],"t1":[{"a":{"S":"b"}}]}}"#, { Self.outcome(BatchGetItemOutput.self, $0, generic: $1) }),
            (
                #"{"Responses":{"t":[{"a":"# + String(repeating: #"{"L":["#, count: 99) + #"{"S":"deep"}"#
                    + String(repeating: "]}", count: 99) + "}]}}",
                { Self.outcome(BatchGetItemOutput.self, $0, generic: $1) }
            ),
        ]
        for (body, outcome) in cases {
            #expect(outcome(Array(body.utf8), false) == outcome(Array(body.utf8), true), "\(body)")
        }
    }

    /// Seeded random answers the generic path accepts: the reader reads every one itself, to the
    /// same output, and reports the same `ConsumedCapacity`.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomValidAnswers(seed: UInt64) {
        var generator = AnswerTextGenerator(seed: seed, valid: true)
        for round in 0..<300 {
            let query = Array(generator.queryAnswer().utf8)
            var json: JSONValue?
            #expect(
                AnswerDecoder.readingItems(QueryOutput.self, from: query, json: &json) != nil, "seed \(seed) round \(round): \(Self.readable(query))")
            #expect(Self.outcome(QueryOutput.self, query, generic: false) == Self.outcome(QueryOutput.self, query, generic: true))
            var genericJSON: JSONValue?
            _ = try? AnswerDecoder.decodeGenerically(QueryOutput.self, from: query, json: &genericJSON)
            #expect(DynamoClient.consumedCapacity(in: json) == DynamoClient.consumedCapacity(in: genericJSON))

            let get = Array(generator.getItemAnswer().utf8)
            #expect(
                AnswerDecoder.readingItems(GetItemOutput.self, from: get, json: &json) != nil, "seed \(seed) round \(round): \(Self.readable(get))")
            #expect(
                Self.outcome(GetItemOutput.self, get, generic: false) == Self.outcome(GetItemOutput.self, get, generic: true), "\(Self.readable(get))"
            )

            let batch = Array(generator.batchGetItemAnswer().utf8)
            #expect(AnswerDecoder.readingItems(BatchGetItemOutput.self, from: batch, json: &json) != nil)
            #expect(Self.outcome(BatchGetItemOutput.self, batch, generic: false) == Self.outcome(BatchGetItemOutput.self, batch, generic: true))
        }
    }

    /// Seeded random answers with one value DynamoDB refuses, or none: the same output or the
    /// same error.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func randomInvalidAnswers(seed: UInt64) {
        var generator = AnswerTextGenerator(seed: seed, valid: false)
        for _ in 0..<300 {
            let query = Array(generator.queryAnswer().utf8)
            #expect(
                Self.outcome(QueryOutput.self, query, generic: false) == Self.outcome(QueryOutput.self, query, generic: true),
                "\(Self.readable(query))")
            let get = Array(generator.getItemAnswer().utf8)
            #expect(
                Self.outcome(GetItemOutput.self, get, generic: false) == Self.outcome(GetItemOutput.self, get, generic: true), "\(Self.readable(get))"
            )
        }
    }

    /// Seeded random valid answers broken at one byte (cut short there, the byte dropped,
    /// doubled or replaced): the same output or the same error.
    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func randomBrokenAnswers(seed: UInt64) {
        var generator = AnswerTextGenerator(seed: seed, valid: true)
        let replacements = Array(#"{}[],:"\ n0t"#.utf8)
        for round in 0..<600 {
            var bytes = Array((round % 2 == 0 ? generator.queryAnswer() : generator.getItemAnswer()).utf8)
            let position = generator.int(0...(bytes.count - 1))
            switch generator.int(0...3) {
            case 0: bytes.removeSubrange(position...)
            case 1: bytes.remove(at: position)
            case 2: bytes.insert(bytes[position], at: position)
            default: bytes[position] = replacements.randomElement(using: &generator.random)!
            }
            if round % 2 == 0 {
                #expect(
                    Self.outcome(QueryOutput.self, bytes, generic: false) == Self.outcome(QueryOutput.self, bytes, generic: true),
                    "\(Self.readable(bytes))")
            } else {
                #expect(
                    Self.outcome(GetItemOutput.self, bytes, generic: false) == Self.outcome(GetItemOutput.self, bytes, generic: true),
                    "\(Self.readable(bytes))")
            }
        }
    }

    /// What a decode gives, exactly: the output's JSON with object members sorted by their
    /// Unicode scalars (sets and lists in their order, names as decoded), or the error's type
    /// and description.
    static func outcome<Output: DynamoShape>(_ type: Output.Type, _ body: [UInt8], generic: Bool) -> String {
        var json: JSONValue?
        do {
            let output =
                generic
                ? try AnswerDecoder.decodeGenerically(type, from: body, json: &json)
                : try AnswerDecoder.decode(type, from: body, json: &json)
            return (try? JSONValue(parsing: output.jsonBytes)).map(exactText) ?? "unparseable output"
        } catch {
            return "\(Swift.type(of: error)): \(error)"
        }
    }

    /// JSON text of `json` with member names in the order of their scalars (`String`'s own order
    /// treats canonically equivalent names as equal).
    static func exactText(_ json: JSONValue) -> String {
        switch json {
        case .array(let elements): return "[" + elements.map(exactText).joined(separator: ",") + "]"
        case .object(let members):
            let names = members.keys.sorted { $0.unicodeScalars.map(\.value).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
            return "{" + names.map { JSONValue.string($0).serialized + ":" + exactText(members[$0]!) }.joined(separator: ",") + "}"
        default: return json.serialized
        }
    }

    /// A body with its non-ASCII scalars as `<hex>`, for failure messages.
    static func readable(_ body: [UInt8]) -> String {
        String(decoding: body, as: UTF8.self).unicodeScalars
            .map { $0.isASCII ? String($0) : "<\(String($0.value, radix: 16))>" }.joined()
    }
}
