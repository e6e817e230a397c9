@testable import DynamoAPI
import Testing

/// A PartiQL statement's `Parameters` as the request decoder reports them: numbers read as the
/// service's PartiQL front end reads them, and the first problem in document order (nesting
/// before a bad number below it or after it), as recorded against the service (eu-west-2,
/// October 2026).
@Suite struct PartiQLParameterTests {
    private func decode(_ parameters: String) throws {
        let json = try JSONValue(parsing: #"{"Statement": "SELECT * FROM t WHERE pk = ?", "Parameters": \#(parameters)}"#)
        _ = try ExecuteStatementInput.decodeRequest(json)
    }

    private static func deep(_ depth: Int, _ leaf: String = #"{"S": "leaf"}"#) -> String {
        String(repeating: #"{"M": {"n": "#, count: depth) + leaf + String(repeating: "}}", count: depth)
    }

    static let unconvertible = "The parameter cannot be converted to a numeric value"
    static let nest =
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"

    static let cases: [(String, String)] = [
        (#"[{"N": "1e99999999999"}]"#, unconvertible + ": 1e99999999999"),
        (#"[{"N": "1e-2147483648"}]"#, unconvertible + ": 1e-2147483648"),
        (#"[{"N": ""}]"#, unconvertible),
        (#"[{"N": "abc"}]"#, unconvertible + ": abc"),
        (#"[{"N": "1e2147483647"}]"#, "Number underflow. Attempting to store a number with magnitude smaller than supported range"),
        (#"[{"L": [{"N": "1"}, {"N": "1e99999999999"}]}]"#, unconvertible + ": 1e99999999999"),
        (#"[{"NS": ["1", "1e99999999999"]}]"#, unconvertible + ": 1e99999999999"),
        ("[\(deep(40)), {\"N\": \"abc\"}]", nest),
        ("[{\"N\": \"abc\"}, \(deep(40))]", unconvertible + ": abc"),
        ("[\(deep(100, #"{"N": "abc"}"#))]", nest),
        ("[\(deep(40)), {\"N\": \"1e126\"}]", nest),
    ]

    @Test(arguments: cases)
    func firstProblemInDocumentOrder(parameters: String, message: String) {
        #expect(throws: DynamoError.validation(message)) { try decode(parameters) }
    }

    /// The PartiQL rules are the parameters' alone: PutItem's item keeps the item layer's
    /// reading (its exponent fits 64 bits, so it overflows; the words' envelope is the dialect's).
    @Test func otherOperationsKeepTheItemLayersWords() throws {
        let json = try JSONValue(
            parsing: #"{"TableName": "t", "Item": {"pk": {"S": "a"}, "n": {"N": "1e99999999999"}}}"#)
        do {
            _ = try PutItemInput.decodeRequest(json)
            Issue.record("the number should be refused")
        } catch {
            #expect(error.message?.hasSuffix(DynamoNumber.Message.overflow) == true, "\(error)")
        }
    }
}
