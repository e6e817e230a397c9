import DynamoAPI
import Testing

@Suite("JSON parser and writer")
struct JSONParserTests {
    @Test("parses every kind of value")
    func parsesValues() throws {
        let value = try JSONValue(parsing: #"{"a":[1,-2.5e3,true,false,null],"b":{"c":"d"},"e":"\u00e9\n\ud83d\ude00"}"#)
        #expect(value["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(value["b"]?["c"] == .string("d"))
        #expect(value["e"] == .string("é\n😀"))
    }

    @Test("keeps number text exactly", arguments: ["0", "-0", "12345678901234567890123456789012345678901", "1.50", "1E+400"])
    func keepsNumberText(text: String) throws {
        #expect(try JSONValue(parsing: text) == .number(text))
    }

    @Test(
        "rejects malformed documents",
        arguments: [
            "", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "tru", "01", "1.", "-", "\"abc", "\"\\x\"", "[1] 2",
            "{'a':1}", "\"\u{01}\"", "\"\\ud800\"", "NaN", "{\"a\":1,}",
        ])
    func rejectsMalformed(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test("rejects invalid UTF-8")
    func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }

    @Test("limits nesting depth instead of overflowing the stack")
    func limitsDepth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    }

    @Test("writer escapes strings so the parser reads them back")
    func writerRoundTrip() throws {
        let original = JSONValue.object([
            "text": .string("quote \" backslash \\ newline \n tab \t control \u{01} unicode ✓"),
            "list": .array([.number("1"), .bool(true), .null]),
        ])
        var writer = JSONWriter()
        writer.write(original)
        #expect(try JSONValue(parsing: writer.bytes) == original)
    }
}
