import DynamoAPI
import DynamoExpressions
@testable import DynamoPartiQL
import Testing

/// The service's exact words for statements it refuses, as the public 2026-10 recordings of
/// the service give them (eu-west-2; us-east-1, eu-west-1 and us-west-2 gave the same strings):
/// each row is a statement and the message, checked through the parse and, for the rows that
/// need a table, the translation against a table keyed `pk` (S).
@Suite struct PartiQLMessageTests {
    static let envelope = "Statement wasn't well formed, can't be processed: "
    static let leftover = envelope + "Unexpected token after expression"
    static let overflow = "Number overflow. Attempting to store a number with magnitude larger than supported range"
    static let underflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"

    let schema = PartiQLSchema(partitionKey: PartiQLKey(name: "pk", type: "S"))

    /// Parses, then translates as the engine would (a SELECT planned, a write translated).
    private func run(_ text: String, _ parameters: [AttributeValue] = []) throws(DynamoError) {
        let parsed = try PartiQLTranslator.parse(text, parameters: parameters)
        if parsed.statement.isRead {
            _ = try PartiQLTranslator.select(parsed.statement, schema: schema, parameters: parameters)
        } else {
            _ = try PartiQLTranslator.write(parsed.statement, schema: schema, parameters: parameters)
        }
    }

    static let grammarCases: [(String, String)] = [
        // A token left over after a whole statement.
        ("SELECT * FROM \"T\" WHERE pk = 1 foo", leftover),
        ("SELECT * FROM \"T\" WHERE pk = 1 e5", leftover),
        ("INSERT INTO \"T\" VALUE {'pk': 970001} foo", leftover),
        ("UPDATE \"T\" SET a = 9 WHERE pk = 970002 foo", leftover),
        ("DELETE FROM \"T\" WHERE pk = 970003 foo", leftover),
        ("SELECT * FROM \"T\" WHERE pk = 1)", leftover),
        ("DELETE FROM \"T\" WHERE pk = 970004 ORDER BY pk", leftover),
        ("SELECT * FROM \"T\" ORDER BY pk WHERE pk = 1", leftover),
        ("INSERT INTO \"T\" t VALUE {'pk': 'x'}", leftover),
        ("FROM \"T\" SET c = 1 WHERE pk = 'x'", leftover),
        ("FROM \"T\" SET c = 1 WHERE pk = 'x' SET d = 2", leftover),
        // What the lexer cannot read: nothing after the colon.
        ("SELECT * FROM \"T\" WHERE pk = 1e2147483648", envelope),
        ("SELECT * FROM \"T\" WHERE pk = 1e99999999999", envelope),
        ("SELECT * FROM \"T\" WHERE pk = 1.5e-2147483647", envelope),
        ("SELECT * FROM \"T\" WHERE pk = 1 # note", envelope),
        ("SELECT * FROM \"T\" WHERE pk = 1 /* note", envelope),
        // Aliases.
        ("SELECT * FROM \"T\" t WHERE pk = 'x'", "Aliasing is not supported"),
        ("SELECT * FROM \"T\" AS t WHERE pk = 'x'", "Aliasing is not supported"),
        ("UPDATE \"T\" t SET a = 3 WHERE pk = 'x'", "Aliasing is not supported"),
        ("DELETE FROM \"T\" t WHERE pk = 'x'", "Aliasing is not supported"),
        // Number literals past DynamoDB's rules, with their place in the constant.
        ("SELECT * FROM \"T\" WHERE pk = 1e126", overflow + " under root"),
        ("SELECT * FROM \"T\" WHERE pk = 1e-131", underflow + " under root"),
        ("SELECT * FROM \"T\" WHERE pk = 1e2147483647", underflow + " under root"),
        (
            "SELECT * FROM \"T\" WHERE pk = 123456789012345678901234567890123456789",
            "Attempting to store more than 38 significant digits in a Number under root"
        ),
        ("INSERT INTO \"T\" VALUE {'pk': 1e126}", overflow + " under root"),
        ("UPDATE \"T\" SET a = 1e-131 WHERE pk = 970005", underflow + " under root"),
        ("INSERT INTO \"T\" VALUE {'pk': 970006, 'm': {'x': 1e126}}", overflow + " under root.x"),
        ("INSERT INTO \"T\" VALUE {'pk': 970007, 'l': [1, 1e126]}", overflow + " under root[1]"),
        // Where a condition should start.
        ("SELECT * FROM \"T\" WHERE", envelope + "Unexpected term"),
        ("SELECT * FROM \"T\" WHERE;", envelope + "Unexpected term"),
        ("SELECT * FROM \"T\" WHERE   ", envelope + "Unexpected term"),
        ("UPDATE \"T\" SET a = 1 WHERE", envelope + "Unexpected term"),
        ("DELETE FROM \"T\" WHERE", envelope + "Unexpected term"),
        ("SELECT * FROM \"T\" WHERE NOT", envelope + "Unexpected term"),
        ("SELECT * FROM \"T\" WHERE (", envelope + "Unexpected term"),
        ("SELECT * FROM \"T\" WHERE pk = 'p1' AND", envelope + "Missing right-hand side expression of infix operator"),
        ("SELECT * FROM \"T\" WHERE pk = 'p1' OR", envelope + "Missing right-hand side expression of infix operator"),
        ("SELECT * FROM \"T\" WHERE ORDER BY pk", envelope + "Unexpected keyword"),
        ("SELECT * FROM \"T\" WHERE pk = 'a' AND x IS FOO", envelope + "Expected type name"),
        ("SELECT * FROM \"T\" WHERE IS NULL", envelope + "Unexpected operator"),
        ("SELECT * FROM \"T\" WHERE pk = LIKE", envelope + "Unexpected operator"),
        ("DELETE FROM", envelope + "Expected identifier for simple path"),
        ("DELETE FROM   ", envelope + "Expected identifier for simple path"),
        ("DELETE FROM;", envelope + "Expected identifier for simple path"),
        ("DELETE FROM WHERE pk = 'a'", envelope + "Expected identifier for simple path"),
        ("SELECT * FROM", envelope + "Unexpected term"),
        // The FROM-first UPDATE needs the key in its WHERE.
        ("FROM \"T\" SET c = 1", "Where clause does not contain a mandatory equality on all key attributes"),
        ("FROM \"T\" REMOVE a", "Where clause does not contain a mandatory equality on all key attributes"),
        ("FROM \"T\" WHERE a = 1 SET c = 1", "Where clause does not contain a mandatory equality on all key attributes"),
    ]

    @Test(arguments: grammarCases)
    func grammar(statement: String, message: String) {
        #expect(throws: DynamoError.validation(message)) { try run(statement) }
    }

    /// `at 1:<column>:<length>` of the first `token` at or after the first `from` in `statement`.
    private static func at(_ statement: String, _ token: String, length: Int? = nil, from: String? = nil) -> String {
        let characters = Array(statement)
        func find(_ needle: String, after start: Int) -> Int {
            let wanted = Array(needle)
            var index = start
            while index + wanted.count <= characters.count {
                if Array(characters[index..<index + wanted.count]) == wanted { return index }
                index += 1
            }
            return -1
        }
        let start = from.map { find($0, after: 0) } ?? 0
        return "at 1:\(find(token, after: start) + 1):\(length ?? token.count)"
    }

    static let where_ = "SELECT * FROM \"T\" WHERE pk = 'k' AND "
    static let update = "UPDATE \"T\" SET "

    static let functionCases: [(String, String?)] = [
        (where_ + "attribute_exists('ss')", "Operator or function requires a document path; operator or function: attribute_exists"),
        (
            where_ + "attribute_exists()",
            "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 0"
        ),
        (
            where_ + "attribute_exists(ss, ns)",
            "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"
        ),
        (where_ + "attribute_exists(m.inner)", envelope + "Invalid path dot component"),
        (update + "ss = set_add(ss, <<1>>) WHERE pk = 'k'", nil),
        (
            update + "ss = set_add(ss, <<'x', 'x'>>) WHERE pk = 'k'",
            "One or more parameter values were invalid: Input collection [x, x] contains duplicates."
        ),
        (update + "ss = set_add(ss, <<>>) WHERE pk = 'k'", "Empty bags are not supported"),
        (update + "m.inner = set_add(m.inner, <<'y'>>) WHERE pk = 'k'", envelope + "Invalid path dot component"),
    ]

    @Test(arguments: functionCases)
    func functions(statement: String, message: String?) {
        if let message {
            #expect(throws: DynamoError.validation(message)) { try run(statement) }
        } else {
            // The type mismatch of a set is the engine's (UpdateItem's) to report.
            #expect(throws: Never.self) { try run(statement) }
        }
    }

    static let positionCases: [(String, String, String, Int?, String?)] = [
        ("SELECT attribute_exists(ss) FROM \"T\" WHERE pk = 'k'", "Unexpected path component", "attribute_exists", nil, nil),
        (where_ + "EXISTS(ss)", "Unrecognized function: exists", "EXISTS", nil, nil),
        (where_ + "set_add(ss, <<'x'>>) = ss", "Unrecognized function: set_add", "set_add", nil, nil),
        (update + "t = set_add(ss, <<'x'>>) WHERE pk = 'k'", "The first argument to SET_ADD must equal the assignment value", "set_add", nil, nil),
        (
            update + "ss = set_add(<<'a'>>, <<'b'>>) WHERE pk = 'k'", "The first argument to SET_ADD must equal the assignment value", "set_add", nil,
            nil
        ),
        (update + "ss = set_add(ss, 'x') WHERE pk = 'k'", "The second argument to SET_ADD must be a value with type SET", "ss", 2, "set_add("),
        (update + "ss = set_add(ss, ['x']) WHERE pk = 'k'", "The second argument to SET_ADD must be a value with type SET", "ss", 2, "set_add("),
        (update + "ss = set_add(ss) WHERE pk = 'k'", "SET_ADD must have exactly two arguments", "set_add", nil, nil),
        (update + "ss = set_add(ss, <<'x'>>, <<'y'>>) WHERE pk = 'k'", "SET_ADD must have exactly two arguments", "set_add", nil, nil),
        (
            update + "t = set_delete(ss, <<'a'>>) WHERE pk = 'k'", "The first argument to SET_DELETE must equal the assignment value", "set_delete",
            nil, nil
        ),
        (
            update + "ss = set_delete(ss, 'a') WHERE pk = 'k'", "The second argument to SET_DELETE must be a value with type SET", "ss", 2,
            "set_delete("
        ),
        (
            "INSERT INTO \"T\" VALUE {'pk': 'k', 'ss': set_add(<<'a'>>, <<'b'>>)}", "Unsupported data type: set_add under key root",
            "set_add", nil, nil
        ),
    ]

    @Test(arguments: positionCases)
    func positions(statement: String, message: String, token: String, length: Int?, from: String?) {
        let expected = "\(message) \(Self.at(statement, token, length: length, from: from))"
        #expect(throws: DynamoError.validation(expected)) { try run(statement) }
    }

    @Test func positionsCountCharactersAndLines() {
        #expect(throws: DynamoError.validation("Unrecognized function: nope at 2:7:4")) {
            try run("SELECT * FROM \"T\" -- é\nWHERE nope(a) AND pk = 'k'")
        }
        #expect(throws: DynamoError.validation("Unrecognized function: nope at 1:27:4")) {
            try run("SELECT * FROM \"Tés\" WHERE nope(a) AND pk = 'k'")
        }
    }

    @Test func typeNamesParseAsTypeTests() {
        for type in ["INT4", "INT8", "DOUBLE PRECISION", "CHARACTER VARYING"] {
            #expect(throws: PartiQLMessages.isType(type)) { try run("SELECT * FROM \"T\" WHERE x IS \(type)") }
        }
    }

    @Test func fromFirstUpdateIsAnUpdate() throws {
        let parsed = try PartiQLTranslator.parse(
            #"from "T" where pk = ? set c = ? remove a returning all new *"#, parameters: [.s("k"), .n(DynamoNumber(7))])
        let plan = try PartiQLTranslator.write(parsed.statement, schema: schema, parameters: [.s("k"), .n(DynamoNumber(7))])
        #expect(plan.action.update?.key == ["pk": .s("k")])
        #expect(plan.returning == .allNew)
    }

    /// Numbers as PartiQL reads them: BigDecimal's bounds, then DynamoDB's range checked on
    /// precision minus scale in 32-bit arithmetic.
    static let numberCases: [(String, String?)] = [
        ("1e99999999999", nil), ("-1e99999999999", nil), ("1e-99999999999", nil), ("1e2147483648", nil),
        ("1e-2147483648", nil), ("1.5e-2147483647", nil), ("", nil), ("abc", nil), ("1e", nil),
        ("1e2147483647", underflow), ("1e126", overflow), ("1e-131", underflow), ("1e2147483646", overflow),
        ("0e126", overflow), ("0e-131", underflow),
    ]

    @Test(arguments: numberCases)
    func numbersThatDoNotRead(text: String, message: String?) {
        #expect(throws: message.map { DynamoNumber.PartiQLProblem.invalid(.validation($0)) } ?? .unconvertible) {
            _ = try DynamoNumber(partiQL: text)
        }
    }

    @Test(arguments: ["7.31e6", "7.31E6", "7.31e+6", "731e4", "73100000e-1", ".731e7", "7310000.", "+7310000"])
    func numbersThatRead(text: String) throws {
        #expect(try DynamoNumber(partiQL: text) == DynamoNumber(7_310_000))
    }

    @Test func parameterMessages() {
        #expect(DynamoNumber.unconvertibleParameter("").message == "The parameter cannot be converted to a numeric value")
        #expect(DynamoNumber.unconvertibleParameter("abc").message == "The parameter cannot be converted to a numeric value: abc")
    }
}
