import DynamoAPI

/// A typed condition: the `ConditionExpression` of a write, the `FilterExpression` of a query
/// or scan.
///
/// Comparisons, `BETWEEN`, `IN`, every function (`attribute_exists`, `attribute_not_exists`,
/// `attribute_type`, `begins_with`, `contains`, `size`) and `&&` / `||` / `!`. Names and values
/// get placeholders when the condition is rendered (see ``Expressions``).
///
/// ```swift
/// let open = ConditionExpression.attribute("status") == "open" && .attributeNotExists("lockedBy")
/// let small = ConditionExpression.size("tags") < 10 || !.attributeType("tags", .stringSet)
/// let cities = ConditionExpression.attribute("address.city").in(["Oslo", "Bergen"])
/// ```
public struct ConditionExpression: Sendable {
    /// A comparison operator.
    public enum Comparator: String, Sendable, Hashable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// The ten DynamoDB type names `attribute_type` tests for.
    public enum AttributeType: String, Sendable, Hashable, CaseIterable {
        case string = "S", number = "N", binary = "B", stringSet = "SS", numberSet = "NS", binarySet = "BS"
        case map = "M", list = "L", null = "NULL", boolean = "BOOL"
    }

    indirect enum Node: Sendable {
        case compare(ExpressionOperand, Comparator, ExpressionOperand)
        case between(ExpressionOperand, ExpressionOperand, ExpressionOperand)
        case isIn(ExpressionOperand, [ExpressionOperand])
        case exists(AttributePath)
        case notExists(AttributePath)
        case type(AttributePath, AttributeType)
        case beginsWith(AttributePath, ExpressionOperand)
        case contains(AttributePath, ExpressionOperand)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    // MARK: Operands

    /// The operand at a document path (`"a.b[2].c"` is parsed; see ``AttributePath``).
    public static func attribute(_ path: AttributePath) -> ExpressionOperand { .path(path) }
    /// A value operand.
    public static func value(_ value: AttributeValue) -> ExpressionOperand { .value(value) }
    /// `size(path)`.
    public static func size(_ path: AttributePath) -> ExpressionOperand { .size(path) }

    // MARK: Functions

    /// `attribute_exists(path)`.
    public static func attributeExists(_ path: AttributePath) -> ConditionExpression { .init(.exists(path)) }
    /// `attribute_not_exists(path)`.
    public static func attributeNotExists(_ path: AttributePath) -> ConditionExpression { .init(.notExists(path)) }
    /// `attribute_type(path, type)`.
    public static func attributeType(_ path: AttributePath, _ type: AttributeType) -> ConditionExpression {
        .init(.type(path, type))
    }
    /// `begins_with(path, prefix)`: the prefix is a string or binary value, or another path.
    public static func beginsWith(_ path: AttributePath, _ prefix: ExpressionOperand) -> ConditionExpression {
        .init(.beginsWith(path, prefix))
    }
    /// `contains(path, operand)`: a substring of a string, an element of a set or list.
    public static func contains(_ path: AttributePath, _ operand: ExpressionOperand) -> ConditionExpression {
        .init(.contains(path, operand))
    }
    /// `operand BETWEEN low AND high` (inclusive).
    public static func between(_ operand: ExpressionOperand, _ low: ExpressionOperand, _ high: ExpressionOperand) -> ConditionExpression {
        .init(.between(operand, low, high))
    }
    /// `operand IN (candidates…)`: 1 to 100 candidates.
    public static func isIn(_ operand: ExpressionOperand, _ candidates: [ExpressionOperand]) -> ConditionExpression {
        .init(.isIn(operand, candidates))
    }

    // MARK: Logic

    /// Every condition holds (`true` for none is not expressible: at least one is required).
    ///
    /// - Returns: `nil` for an empty list.
    public static func all(_ conditions: [ConditionExpression]) -> ConditionExpression? {
        conditions.dropFirst().reduce(conditions.first) { partial, next in partial.map { $0 && next } }
    }
    /// At least one condition holds.
    ///
    /// - Returns: `nil` for an empty list.
    public static func any(_ conditions: [ConditionExpression]) -> ConditionExpression? {
        conditions.dropFirst().reduce(conditions.first) { partial, next in partial.map { $0 || next } }
    }
    /// `lhs AND rhs`.
    public static func && (lhs: ConditionExpression, rhs: ConditionExpression) -> ConditionExpression {
        .init(.and(lhs.node, rhs.node))
    }
    /// `lhs OR rhs`.
    public static func || (lhs: ConditionExpression, rhs: ConditionExpression) -> ConditionExpression {
        .init(.or(lhs.node, rhs.node))
    }
    /// `NOT condition`.
    public static prefix func ! (condition: ConditionExpression) -> ConditionExpression { .init(.not(condition.node)) }
}

extension ExpressionOperand {
    /// `lhs = rhs`.
    public static func == (lhs: ExpressionOperand, rhs: ExpressionOperand) -> ConditionExpression { .init(.compare(lhs, .equal, rhs)) }
    /// `lhs <> rhs`.
    public static func != (lhs: ExpressionOperand, rhs: ExpressionOperand) -> ConditionExpression { .init(.compare(lhs, .notEqual, rhs)) }
    /// `lhs < rhs`.
    public static func < (lhs: ExpressionOperand, rhs: ExpressionOperand) -> ConditionExpression { .init(.compare(lhs, .less, rhs)) }
    /// `lhs <= rhs`.
    public static func <= (lhs: ExpressionOperand, rhs: ExpressionOperand) -> ConditionExpression { .init(.compare(lhs, .lessOrEqual, rhs)) }
    /// `lhs > rhs`.
    public static func > (lhs: ExpressionOperand, rhs: ExpressionOperand) -> ConditionExpression { .init(.compare(lhs, .greater, rhs)) }
    /// `lhs >= rhs`.
    public static func >= (lhs: ExpressionOperand, rhs: ExpressionOperand) -> ConditionExpression { .init(.compare(lhs, .greaterOrEqual, rhs)) }

    /// `self BETWEEN low AND high`.
    public func between(_ low: ExpressionOperand, _ high: ExpressionOperand) -> ConditionExpression {
        .between(self, low, high)
    }
    /// `self IN (candidates…)`.
    public func `in`(_ candidates: [ExpressionOperand]) -> ConditionExpression { .isIn(self, candidates) }
}
