import DynamoAPI
import Testing

/// `\u` escapes, which `JSONParser` and `JSONByteReader` both decode with `JSONEscape`: the
/// parser's string or its error (reason and offset, which the client's `undecodableResponse`
/// shows), and the reader's string or its bail, agree.
@Suite("JSON unicode escapes")
struct JSONEscapeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// A JSON document: one string.
        var json: String
        /// The decoded string, or the parser's error.
        var expected: Result<String, JSONParseError>
        var testDescription: String { json }
    }

    static let cases: [Case] = [
        Case(json: #""\u00e9""#, expected: .success("é")),
        Case(json: #""a\u0041\u00E9\u2028z""#, expected: .success("aAé\u{2028}z")),
        Case(json: #""\ud83d\ude00""#, expected: .success("😀")),
        Case(json: #""x\uD83D\uDE00\uDBFF\uDFFFy""#, expected: .success("x😀\u{10FFFF}y")),
        Case(json: #""\ud800""#, expected: .failure(JSONParseError(offset: 7, reason: "Unpaired surrogate"))),
        Case(json: #""\ud800\nabcd""#, expected: .failure(JSONParseError(offset: 7, reason: "Unpaired surrogate"))),
        Case(json: #""\ud800\u0041""#, expected: .failure(JSONParseError(offset: 13, reason: "Unpaired surrogate"))),
        Case(json: #""\ud800\udbff""#, expected: .failure(JSONParseError(offset: 13, reason: "Unpaired surrogate"))),
        Case(json: #""\ude00""#, expected: .failure(JSONParseError(offset: 7, reason: "Unpaired surrogate"))),
        Case(json: #""\u12""#, expected: .failure(JSONParseError(offset: 3, reason: "Invalid unicode escape"))),
        Case(json: #""\u12g4""#, expected: .failure(JSONParseError(offset: 5, reason: "Invalid unicode escape"))),
        Case(json: #""\ud83d\ude0""#, expected: .failure(JSONParseError(offset: 12, reason: "Invalid unicode escape"))),
    ]

    @Test(arguments: cases)
    func parserAndReaderAgree(_ example: Case) {
        let bytes = Array(example.json.utf8)
        let parsed = Result { () throws(JSONParseError) -> String in
            guard case .string(let text) = try JSONValue(parsing: bytes) else { return "not a string" }
            return text
        }
        // Compared as scalars: `String`'s `==` would take canonically equivalent text as equal.
        #expect(parsed.map { Array($0.unicodeScalars) } == example.expected.map { Array($0.unicodeScalars) })
        let read = bytes.withUnsafeBytes { raw -> String? in
            var reader = JSONByteReader(raw)
            guard let text = try? reader.string(), reader.atEnd() else { return nil }
            return text
        }
        #expect(read.map { Array($0.unicodeScalars) } == (try? example.expected.get()).map { Array($0.unicodeScalars) })
    }
}
