import DynamoAPI

/// Which request parameter an expression came from; it names the expression in error messages.
public enum ExpressionKind: String, Sendable, Hashable, CaseIterable {
    case condition = "ConditionExpression"
    case filter = "FilterExpression"
    case keyCondition = "KeyConditionExpression"
    case update = "UpdateExpression"
    case projection = "ProjectionExpression"
    /// SearchVectors' filter over a vector index's search schema.
    case searchCondition = "SearchConditionExpression"

    /// Which grammar the expression is read with.
    var grammar: Grammar {
        switch self {
        case .condition, .filter, .keyCondition, .searchCondition: .condition
        case .update: .update
        case .projection: .projection
        }
    }

    /// The three grammars: conditions (also filters and key conditions), updates, projections.
    enum Grammar: Sendable, Hashable {
        case condition, update, projection
    }
}

/// A problem found in one expression, worded as DynamoDB words it but without the
/// `Invalid <Parameter>: ` prefix, which depends on the parameter the expression came from.
struct ExpressionProblem: Error, Sendable, Equatable {
    var message: String

    /// The `ValidationException` DynamoDB answers with for this problem in an expression of `kind`.
    func error(in kind: ExpressionKind) -> DynamoError {
        ExpressionMessages.invalid(kindRawValue: kind.rawValue, message: message)
    }
}

/// DynamoDB's expression messages: a fixed text, then `; ` and `name: value` details, or a bare
/// `;` when there are none. The texts are those of DynamoDB's `DbValidationError` (as shipped in
/// DynamoDB Local); the details are those its messages carry (dynalite's recorded tests).
enum Message {
    static func detail(_ text: String, _ details: KeyValuePairs<String, String> = [:]) -> String {
        if details.isEmpty { return text + ";" }
        return text + "; " + details.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    static func syntax(token: String, near: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("Syntax error", ["token": "\"\(token)\"", "near": "\"\(near)\""]))
    }

    static let redundantParentheses = ExpressionProblem(message: detail("The expression has redundant parentheses"))
    static let empty = ExpressionProblem(message: detail("The expression can not be empty"))

    static func reserved(_ word: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("Attribute name is a reserved keyword", ["reserved keyword": word]))
    }

    static func listIndex(_ text: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("List index is not within the allowable range", ["index": "[\(text)]"]))
    }

    static func unknownFunction(_ name: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("Invalid function name", ["function": name]))
    }

    static func functionInCondition(_ name: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("The function is not allowed in a condition expression", ["function": name]))
    }

    static func functionInUpdate(_ name: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("The function is not allowed in an update expression", ["function": name]))
    }

    static func functionMisused(_ name: String) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "The function is not allowed to be used this way in an expression",
                ["function": name]))
    }

    static func operandCount(_ name: String, _ count: Int) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "Incorrect number of operands for operator or function",
                ["operator or function": name, "number of operands": "\(count)"]))
    }

    static func operandType(_ name: String, _ type: String) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "Incorrect operand type for operator or function",
                ["operator or function": name, "operand type": type]))
    }

    /// ADD and DELETE name the operator alone, the long type name and the allowed type set.
    static func actionOperandType(_ action: String, _ type: String) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "Incorrect operand type for operator or function",
                [
                    "operator": action, "operand type": type,
                    "typeSet": "ALLOWED_FOR_\(action)_OPERAND",
                ]))
    }

    static func requiresPath(_ name: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("Operator or function requires a document path", ["operator or function": name]))
    }

    static func notDistinct(_ name: String, _ path: DocumentPath) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "The first operand must be distinct from the remaining operands for this operator or function",
                ["operator": name, "first operand": path.description]))
    }

    static func undefinedName(_ name: String) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "An expression attribute name used in the document path is not defined",
                ["attribute name": name]))
    }

    static func undefinedValue(_ name: String) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "An expression attribute value used in expression is not defined",
                ["attribute value": name]))
    }

    static func typeName(_ name: String) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "Invalid attribute type name found",
                ["type": name, "valid types": "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}"]))
    }

    static func section(_ keyword: String) -> ExpressionProblem {
        ExpressionProblem(message: detail("The \"\(keyword)\" section can only be used once in an update expression"))
    }

    static func tooDeep(_ depth: Int) -> ExpressionProblem {
        ExpressionProblem(message: detail("The document path has too many nesting levels", ["nesting levels": "\(depth)"]))
    }

    static func overlap(_ one: DocumentPath, _ two: DocumentPath) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "Two document paths overlap with each other; must remove or rewrite one of these paths",
                ["path one": one.description, "path two": two.description]))
    }

    static func conflict(_ one: DocumentPath, _ two: DocumentPath) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "Two document paths conflict with each other; must remove or rewrite one of these paths",
                ["path one": one.description, "path two": two.description]))
    }

    static func tooManyInOperands(_ count: Int) -> ExpressionProblem {
        ExpressionProblem(message: detail("The IN operator is provided with too many operands", ["number of operands": "\(count)"]))
    }

    static func tooManyOperators(_ count: Int) -> ExpressionProblem {
        ExpressionProblem(message: detail("The expression contains too many operators", ["operator count": "\(count)"]))
    }

    static func betweenTypes(_ lower: AttributeValue, _ upper: AttributeValue) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "The BETWEEN operator requires same data type for lower and upper bounds",
                ["lower bound operand": boundText(lower), "upper bound operand": boundText(upper)]))
    }

    static func betweenOrder(_ lower: AttributeValue, _ upper: AttributeValue) -> ExpressionProblem {
        ExpressionProblem(
            message: detail(
                "The BETWEEN operator requires upper bound to be greater than or equal to lower bound",
                ["lower bound operand": boundText(lower), "upper bound operand": boundText(upper)]))
    }

    /// A bound as DynamoDB prints it: `AttributeValue: {N:5}`.
    static func boundText(_ value: AttributeValue) -> String {
        switch value {
        case .s(let text): "AttributeValue: {S:\(text)}"
        case .n(let number): "AttributeValue: {N:\(number)}"
        case .b(let bytes): "AttributeValue: {B:java.nio.HeapByteBuffer[pos=0 lim=\(bytes.count) cap=\(bytes.count)]}"
        default: "AttributeValue: {\(value.typeDescriptor):\(value)}"
        }
    }

    static func sizeExceeded(_ kind: ExpressionKind, size: Int) -> ExpressionProblem {
        // Captured from DynamoDB: only conditions and filters report the size.
        if kind == .condition || kind == .filter {
            return ExpressionProblem(
                message: detail(
                    "Expression size has exceeded the maximum allowed size",
                    ["expression size": "\(size)"]))
        }
        return ExpressionProblem(message: detail("Expression size has exceeded the maximum allowed size"))
    }

    /// DynamoDB's long type names, used in ADD and DELETE operand messages.
    static func longTypeName(_ value: AttributeValue) -> String {
        switch value {
        case .s: "STRING"
        case .n: "NUMBER"
        case .b: "BINARY"
        case .bool: "BOOLEAN"
        case .null: "NULL"
        case .l: "LIST"
        case .m: "MAP"
        case .ss: "STRING_SET"
        case .ns: "NUMBER_SET"
        case .bs: "BINARY_SET"
        }
    }
}
