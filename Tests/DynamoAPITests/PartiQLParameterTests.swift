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

    /// Between the members of one map the first problem is the first written, whatever order a
    /// dictionary keeps: the decoder rereads the body with its member order. Seeded: maps of
    /// many members, one deep and one unconvertible, at random places.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func mapMembersInDocumentOrder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<20 {
            var members = (0..<Int.random(in: 2...12, using: &random)).map { #""m\#($0)": {"S": "x"}"# }
            let deepAt = Int.random(in: 0..<members.count, using: &random)
            var badAt = Int.random(in: 0..<members.count - 1, using: &random)
            if badAt >= deepAt { badAt += 1 }
            members[deepAt] = #""d": \#(Self.deep(40))"#
            members[badAt] = #""bad": {"N": "abc"}"#
            let text =
                #"{"Statement": "SELECT * FROM t WHERE pk = ?", "Parameters": [{"M": {"#
                + members.joined(separator: ", ") + "}}]}"
            let body = Array(text.utf8)
            let json = try JSONValue(parsing: body)
            let expected = deepAt < badAt ? Self.nest : Self.unconvertible + ": abc"
            #expect(throws: DynamoError.validation(expected)) {
                _ = try ExecuteStatementInput.decodeRequest(
                    json, orderedDocument: { try? JSONValue(parsingWithMemberOrder: body) })
            }
        }
    }

    /// BatchExecuteStatement keeps a statement's invalid parameter with that statement (it
    /// answers as the statement's `Error`); the request itself decodes, and the statements
    /// after it keep their own.
    @Test func batchStatementsKeepTheirOwnProblem() throws {
        let statements = [
            #"{"Statement": "SELECT * FROM t WHERE pk = ?", "Parameters": [{"N": "1e99999999999"}]}"#,
            #"{"Statement": "SELECT * FROM t WHERE pk = 'a'"}"#,
            #"{"Statement": "SELECT * FROM t WHERE pk = ?", "Parameters": [{"S": "fine"}]}"#,
            #"{"Statement": "SELECT * FROM t WHERE pk = ?", "Parameters": [{"M": {"bad": {"N": "abc"}, "d": "#
                + Self.deep(40) + "}}]}",
        ]
        let body = Array((#"{"Statements": ["# + statements.joined(separator: ", ") + "]}").utf8)
        let input = try BatchExecuteStatementInput.decodeRequest(
            try JSONValue(parsing: body), orderedDocument: { try? JSONValue(parsingWithMemberOrder: body) })
        let expected: [DynamoError?] = [
            .validation(Self.unconvertible + ": 1e99999999999"), nil, nil, .validation(Self.unconvertible + ": abc"),
        ]
        #expect(input.statements.map(\.parameterProblem) == expected)
        // A JSON type error is still the request's.
        #expect(throws: DynamoError.self) {
            _ = try BatchExecuteStatementInput.decodeRequest(
                try JSONValue(parsing: #"{"Statements": [{"Statement": "x", "Parameters": [{"N": 5}]}]}"#))
        }
    }

    /// An object parsed with its member order lists its members as written, a repeated name
    /// where it first appears; any other object lists them by key.
    @Test func orderedMembers() throws {
        let ordered = try JSONValue(parsingWithMemberOrder: Array(#"{"b": 1, "a": {"z": 2, "y": 3}, "b": 4}"#.utf8))
        #expect(ordered.orderedMembers?.map(\.key) == ["b", "a"])
        #expect(ordered.orderedMembers?.first?.value == .number("4"))
        #expect(ordered["a"]?.orderedMembers?.map(\.key) == ["z", "y"])
        let plain = try JSONValue(parsing: #"{"b": 1, "a": 2, "c": 3}"#)
        #expect(plain.orderedMembers?.map(\.key) == ["a", "b", "c"])
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
