import DynamoAPI
import Testing

@Suite("Attribute values")
struct AttributeValueTests {
    private func decode(_ text: String) throws(DynamoError) -> AttributeValue {
        try AttributeValue(json: try! JSONValue(parsing: text))
    }

    @Test(
        "all ten types round-trip through their wire JSON",
        arguments: [
            #"{"S":"hello"}"#, #"{"S":""}"#, #"{"N":"12.5"}"#, #"{"B":"AAEC"}"#, #"{"SS":["a","b"]}"#,
            #"{"NS":["1","2.5"]}"#, #"{"BS":["AA==","AQ=="]}"#, #"{"M":{"k":{"L":[{"NULL":true},{"BOOL":false}]}}}"#,
            #"{"L":[]}"#, #"{"M":{}}"#, #"{"NULL":true}"#, #"{"BOOL":true}"#,
        ])
    func roundTrips(text: String) throws {
        let value = try decode(text)
        #expect(try decode(value.description) == value)
        #expect(value.json == (try JSONValue(parsing: text)))
    }

    @Test("numbers come back normalized")
    func normalizesNumbers() throws {
        #expect(try decode(#"{"N":"1.50"}"#).description == #"{"N":"1.5"}"#)
        #expect(try decode(#"{"N":"+1000.0"}"#).description == #"{"N":"1000"}"#)
    }

    @Test("binary decodes from base64")
    func decodesBinary() throws {
        #expect(try decode(#"{"B":"AAEC"}"#) == .b([0, 1, 2]))
    }

    @Test(
        "invalid values get DynamoDB's ValidationException messages",
        arguments: [
            (#"{}"#, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
            (
                #"{"S":"a","N":"1"}"#,
                "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
            ),
            (#"{"SS":[]}"#, "One or more parameter values were invalid: An string set  may not be empty"),
            (#"{"NS":[]}"#, "One or more parameter values were invalid: An number set  may not be empty"),
            (#"{"BS":[]}"#, "One or more parameter values were invalid: Binary sets should not be empty"),
            (#"{"SS":["a","a"]}"#, #"One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates."#),
            (#"{"SS":["","",""]}"#, #"One or more parameter values were invalid: Input collection ["", "", ""] contains duplicates."#),
            (
                #"{"SS":["q\"","q\""]}"#,
                #"One or more parameter values were invalid: Input collection ["q\"", "q\""] contains duplicates."#
            ),
            (
                #"{"BS":["Yg==","Yg=="]}"#,
                #"One or more parameter values were invalid: Input collection ["Yg==","Yg=="]of type BS contains duplicates."#
            ),
            (#"{"NS":["1","1.0"]}"#, "Input collection contains duplicates"),
        ])
    func rejectsInvalid(text: String, message: String) {
        #expect(throws: DynamoError.validation(message)) { try decode(text) }
    }

    @Test("NULL false is refused, at any depth, as every region refused it on 2026-10-07")
    func nullFalseIsRefused() throws {
        let refusal = DynamoError.validation(
            "One or more parameter values were invalid: Null attribute value types must have the value of true")
        #expect(throws: refusal) { try decode(#"{"NULL":false}"#) }
        #expect(throws: refusal) { try decode(#"{"M":{"a":{"L":[{"NULL":false}]}}}"#) }
        #expect(throws: (any Error).self) { try decode(#"{"NULL":"false"}"#) }
    }

    @Test("a set with equal numbers written differently is a duplicate")
    func numberSetDuplicates() {
        #expect(throws: DynamoError.validation("Input collection contains duplicates")) {
            try decode(#"{"NS":["1","1.0"]}"#)
        }
    }

    @Test("wrong JSON types are SerializationExceptions")
    func wrongTypes() {
        for text in [#"{"S":5}"#, #"{"SS":"a"}"#, #"{"M":[]}"#, #"{"BOOL":"true"}"#, #"{"B":"abc"}"#, "[]"] {
            #expect(throws: DynamoError.self) { try decode(text) }
            do { _ = try decode(text) } catch { #expect(error.code == .serialization, "\(text)") }
        }
    }

    @Test("sets compare without regard to order")
    func setEquality() throws {
        #expect(try decode(#"{"SS":["a","b"]}"#) == decode(#"{"SS":["b","a"]}"#))
        #expect(try decode(#"{"L":[{"S":"a"},{"S":"b"}]}"#) != decode(#"{"L":[{"S":"b"},{"S":"a"}]}"#))
    }

    @Test("item sizes follow DynamoDB's rules")
    func itemSizes() throws {
        let item: Item = [
            "name": .s("abc"), // 4 + 3
            "flag": .bool(true), // 4 + 1
            "nothing": .null, // 7 + 1
            "bytes": .b([1, 2, 3, 4]), // 5 + 4
            "list": .l([.s("x"), .s("yz")]), // 4 + 3 + (1 + 1) + (1 + 2)
            "map": .m(["k": .s("v")]), // 3 + 3 + 1 + 1 + 1
        ]
        #expect(ItemSize.of(item) == 7 + 5 + 8 + 9 + 12 + 9)
    }
}

@Suite("Base64")
struct Base64Tests {
    @Test("encodes and decodes every tail length")
    func roundTrip() throws {
        for length in 0..<10 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            let text = Base64.encode(bytes)
            #expect(try Base64.decode(text).get() == bytes)
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
    }

    @Test("rejects what DynamoDB's deserializer rejects")
    func rejects() {
        for text in ["abc", "ab$=", "a===", "Zm9=Zm9v", "Zm9vYmF="] {
            guard case .failure = Base64.decode(text) else {
                Issue.record("accepted \(text)")
                continue
            }
        }
    }
}
