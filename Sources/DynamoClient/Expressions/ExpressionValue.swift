import DynamoAPI

/// A value in an expression, sent through an `ExpressionAttributeValues` placeholder.
///
/// Literals become values directly: `"open"` is `S`, `3` and `2.5` are `N`, `true` is `BOOL`;
/// any other `AttributeValue` is wrapped with ``init(_:)``.
///
/// ```swift
/// let key = KeyConditionExpression.partition("pk", "user#1")
/// let tags = ExpressionValue(.ss(["a", "b"]))
/// ```
public struct ExpressionValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// The value.
    public var value: AttributeValue

    /// Wraps a value.
    public init(_ value: AttributeValue) { self.value = value }
    /// A string (`S`).
    public init(stringLiteral value: String) { self.value = .s(value) }
    /// A number (`N`).
    public init(integerLiteral value: Int) { self.value = .n(DynamoNumber(value)) }
    /// A number (`N`), written with Swift's shortest round-tripping digits.
    public init(floatLiteral value: Double) { self.value = Self.number(value) }
    /// A boolean (`BOOL`).
    public init(booleanLiteral value: Bool) { self.value = .bool(value) }

    /// `N` for a finite double (its shortest round-tripping digits); `NULL` otherwise, which
    /// DynamoDB cannot store as a number and which the validation then reports.
    static func number(_ value: Double) -> AttributeValue {
        guard value.isFinite, let number = try? DynamoNumber(parsing: "\(value)") else { return .null }
        return .n(number)
    }
}

/// One side of a comparison or an argument of a function in a condition: a document path, a
/// value, or `size(path)`.
///
/// Literals are values (`"open"`, `3`, `true`); paths come from
/// ``ConditionExpression/attribute(_:)`` and sizes from ``ConditionExpression/size(_:)``.
///
/// Not `Equatable` on purpose: `==` on operands builds a ``ConditionExpression``.
public struct ExpressionOperand: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    enum Kind: Sendable {
        case path(AttributePath)
        case value(AttributeValue)
        case size(AttributePath)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// A value operand.
    public static func value(_ value: AttributeValue) -> ExpressionOperand { ExpressionOperand(.value(value)) }
    /// A document path operand.
    public static func path(_ path: AttributePath) -> ExpressionOperand { ExpressionOperand(.path(path)) }
    /// `size(path)`: the length of a string or binary, the count of a set, list or map.
    public static func size(_ path: AttributePath) -> ExpressionOperand { ExpressionOperand(.size(path)) }

    /// A string value (`S`).
    public init(stringLiteral value: String) { kind = .value(.s(value)) }
    /// A number value (`N`).
    public init(integerLiteral value: Int) { kind = .value(.n(DynamoNumber(value))) }
    /// A number value (`N`).
    public init(floatLiteral value: Double) { kind = .value(ExpressionValue.number(value)) }
    /// A boolean value (`BOOL`).
    public init(booleanLiteral value: Bool) { kind = .value(.bool(value)) }
    /// A value operand from an ``ExpressionValue``.
    public init(_ value: ExpressionValue) { kind = .value(value.value) }
}
