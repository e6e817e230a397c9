import DynamoAPI
import DynamoExpressions
import Testing

@Suite("Expression validation messages")
struct ValidationTests {
    @Test(
        "syntax errors name the token and the text from the token before to the token after",
        arguments: [
            ("SET", "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"SET\""),
            ("ADD hits : incr", "Invalid UpdateExpression: Syntax error; token: \":\", near: \"hits : incr\""),
            ("INVALID SYNTAX HERE", "Invalid UpdateExpression: Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\""),
            ("SET a = b + c + d", "Invalid UpdateExpression: Syntax error; token: \"+\", near: \"c + d\""),
            ("SET a = b / c", "Invalid UpdateExpression: Syntax error; token: \"/\", near: \"b / c\""),
            ("SET a[1] = \"x\"", "Invalid UpdateExpression: Syntax error; token: \"\"\", near: \"= \"x\""),
        ])
    func updateSyntax(expression: String, message: String) {
        #expect(T.error { _ = try T.compile(.updateItem, update: expression) } == message)
    }

    @Test(
        "condition syntax errors",
        arguments: [
            ("attribute_type()", "Invalid ConditionExpression: Syntax error; token: \")\", near: \"()\""),
            ("a", "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"a\""),
            ("a = ", "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"= \""),
            ("a IN ()", "Invalid ConditionExpression: Syntax error; token: \")\", near: \"()\""),
            ("l[a] = l", "Invalid ConditionExpression: Syntax error; token: \"a\", near: \"[a]\""),
            ("((a = b))", "Invalid ConditionExpression: The expression has redundant parentheses;"),
            ("", "Invalid ConditionExpression: The expression can not be empty;"),
        ])
    func conditionSyntax(expression: String, message: String) {
        #expect(T.error { _ = try T.compile(.putItem, condition: expression) } == message)
    }

    @Test(
        "semantic errors, in DynamoDB's wording",
        arguments: [
            ("abort = b", nil, nil, "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: abort"),
            (
                "#n = b", nil, nil,
                "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #n"
            ),
            ("a = b", ["#n": "x"], nil, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}"),
            (
                "a = :v", nil, #"{":w":{"S":"x"}}"#,
                "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :v"
            ),
            ("a = :v", nil, #"{":v":{"S":"x"},":x":{"S":"y"}}"#, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}"),
            ("foo(a)", nil, nil, "Invalid ConditionExpression: Invalid function name; function: foo"),
            ("size(a)", nil, nil, "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size"),
            (
                "attribute_exists(a) = b", nil, nil,
                "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"
            ),
            (
                "if_not_exists(a, b) = c", nil, nil,
                "Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"
            ),
            (
                "begins_with(a, b, c)", nil, nil,
                "Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 3"
            ),
            (
                "a = a", nil, nil,
                "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"
            ),
            (
                "a < :v", nil, #"{":v":{"L":[]}}"#,
                "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: L"
            ),
            (
                "size(:v) > a", nil, #"{":v":{"N":"1"}}"#,
                "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"
            ),
            (
                "attribute_exists(:v)", nil, #"{":v":{"S":"x"}}"#,
                "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"
            ),
            (
                "attribute_type(a, :v)", nil, #"{":v":{"S":"X"}}"#,
                "Invalid ConditionExpression: Invalid attribute type name found; type: X, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"
            ),
            (
                "a BETWEEN :h AND :l", nil, #"{":h":{"N":"5"},":l":{"N":"1"}}"#,
                "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}"
            ),
            (
                "a BETWEEN :h AND :l", nil, #"{":h":{"N":"5"},":l":{"S":"1"}}"#,
                "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {S:1}"
            ),
            ("a[4294967296] = b", nil, nil, "Invalid ConditionExpression: List index is not within the allowable range; index: [4294967296]"),
        ] as [(String, [String: String]?, String?, String)])
    func conditionSemantics(expression: String, names: [String: String]?, values: String?, message: String) {
        #expect(T.error { _ = try T.compile(.putItem, condition: expression, names: names, values: values) } == message)
    }

    @Test(
        "update expression errors",
        arguments: [
            ("SET a = :v SET b = :v", "Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;"),
            (
                "SET a = :v, a.b = :v",
                "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"
            ),
            (
                "REMOVE a.c SET a[1] = :v",
                "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, c], path two: [a, [1]]"
            ),
            ("SET a = a + :s", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"),
            (
                "SET a = list_append(a, :s)",
                "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S"
            ),
            (
                "ADD a :s",
                "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"
            ),
            (
                "DELETE a :v",
                "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"
            ),
            (
                "SET a = if_not_exists(:v, b)",
                "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"
            ),
            (
                "SET a = if_not_exists(b)",
                "Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1"
            ),
            ("SET a = size(b)", "Invalid UpdateExpression: The function is not allowed in an update expression; function: size"),
            ("REMOVE absolute", "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: absolute"),
        ])
    func updateSemantics(expression: String, message: String) {
        let values = #"{":v":{"N":"1"},":s":{"S":"x"}}"#
        let error = T.error { _ = try T.compile(.updateItem, update: expression, values: values) }
        // Unused values are checked last; the expression's own error comes first.
        #expect(error == message)
    }

    @Test("mixing legacy and expression parameters, and empty maps")
    func parameters() {
        var input = ExpressionInput(.updateItem)
        input.updateExpression = "SET a = :v"
        input.attributeUpdates = ["a": AttributeValueUpdate(value: .s("x"))]
        #expect(
            T.error { _ = try ExpressionCompiler.compile(input) }
                == "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}"
        )
        #expect(
            T.error { _ = try T.compile(.updateItem, values: #"{":v":{"S":"x"}}"#) }
                == "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null")
        #expect(
            T.error { _ = try T.compile(.putItem, condition: "a = b", names: [:]) }
                == "ExpressionAttributeNames must not be empty")
        #expect(
            T.error { _ = try T.compile(.putItem, condition: "a = b", values: "{}") }
                == "ExpressionAttributeValues must not be empty")
        #expect(
            T.error { _ = try T.compile(.putItem, condition: "a = b", names: ["a": "b"]) }
                == "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"")
    }

    @Test("limits: expression size, path depth, IN operands")
    func limits() {
        let long = "attribute_not_exists(a" + String(repeating: "b", count: 4096) + ")"
        #expect(
            T.error { _ = try T.compile(.putItem, condition: long) }
                == "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: \(long.utf8.count)")
        let deep = "attribute_exists(a" + String(repeating: ".b", count: 32) + ")"
        #expect(
            T.error { _ = try T.compile(.putItem, condition: deep) }
                == "Invalid ConditionExpression: The document path has too many nesting levels; nesting levels: 33")
        let list = (0...100).map { _ in ":v" }.joined(separator: ", ")
        #expect(
            T.error { _ = try T.compile(.putItem, condition: "a IN (\(list))", values: #"{":v":{"N":"1"}}"#) }
                == "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101")
    }

    @Test("updates may not touch key attributes")
    func keyAttributes() throws {
        let compiled = try T.compile(.updateItem, update: "SET pk = :v", values: #"{":v":{"S":"x"}}"#)
        #expect(
            T.error { try compiled.checkKeyAttributes(["pk"]) }
                == "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key")
    }

    @Test(
        "legacy Expected is validated with DynamoDB's messages",
        arguments: [
            (ExpectedAttributeValue(), "One or more parameter values were invalid: Value must be provided when Exists is null for Attribute: x"),
            (
                ExpectedAttributeValue(exists: true),
                "One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: x"
            ),
            (
                ExpectedAttributeValue(value: .s("a"), exists: false),
                "One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: x"
            ),
            (
                ExpectedAttributeValue(comparisonOperator: .lt),
                "One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: x"
            ),
            (
                ExpectedAttributeValue(exists: true, comparisonOperator: .lt),
                "One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: x"
            ),
            (
                ExpectedAttributeValue(comparisonOperator: .between, attributeValueList: [T.n(1)]),
                "One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator"
            ),
            (
                ExpectedAttributeValue(attributeValueList: [T.n(1)]),
                "One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: x"
            ),
        ])
    func expected(condition: ExpectedAttributeValue, message: String) {
        var input = ExpressionInput(.putItem)
        input.expected = ["x": condition]
        #expect(T.error { _ = try ExpressionCompiler.compile(input) } == message)
    }
}
