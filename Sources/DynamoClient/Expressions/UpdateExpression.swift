import DynamoAPI

/// A typed `UpdateExpression`: `SET`, `REMOVE`, `ADD` and `DELETE` actions, chained.
///
/// ```swift
/// let update = UpdateExpression.set("count", .add(1))          // SET #n0 = #n0 + :v0
///     .set("title", "Draft 2")
///     .set("views", .ifNotExists(0))
///     .set("log", .appending([.s("edited")]))
///     .remove("draft")
///     .add("tags", .ss(["new"]))
///     .delete("flags", .ss(["stale"]))
/// ```
///
/// Rendering rejects an update with no action and two actions on overlapping paths
/// (`a` and `a.b`, or the same path twice), as DynamoDB does.
public struct UpdateExpression: Sendable {
    enum Action: Sendable {
        case set(AttributePath, SetValue)
        case remove(AttributePath)
        case add(AttributePath, AttributeValue)
        case delete(AttributePath, AttributeValue)

        var path: AttributePath {
            switch self {
            case .set(let path, _), .remove(let path), .add(let path, _), .delete(let path, _): path
            }
        }
    }

    private(set) var actions: [Action]

    /// An update with no actions yet (rendering it is an error until one is added).
    public init() { actions = [] }

    private init(_ action: Action) { actions = [action] }

    /// `SET path = value`.
    public static func set(_ path: AttributePath, _ value: SetValue) -> UpdateExpression { .init(.set(path, value)) }
    /// `REMOVE path`.
    public static func remove(_ path: AttributePath) -> UpdateExpression { .init(.remove(path)) }
    /// `ADD path value`: adds a number to a number, or elements to a set (`N`, `SS`, `NS`, `BS`).
    public static func add(_ path: AttributePath, _ value: AttributeValue) -> UpdateExpression { .init(.add(path, value)) }
    /// `DELETE path value`: removes elements from a set (`SS`, `NS`, `BS`).
    public static func delete(_ path: AttributePath, _ value: AttributeValue) -> UpdateExpression { .init(.delete(path, value)) }

    /// This update and `SET path = value`.
    public func set(_ path: AttributePath, _ value: SetValue) -> UpdateExpression { appending(.set(path, value)) }
    /// This update and `REMOVE path`.
    public func remove(_ path: AttributePath) -> UpdateExpression { appending(.remove(path)) }
    /// This update and `ADD path value`.
    public func add(_ path: AttributePath, _ value: AttributeValue) -> UpdateExpression { appending(.add(path, value)) }
    /// This update and `DELETE path value`.
    public func delete(_ path: AttributePath, _ value: AttributeValue) -> UpdateExpression { appending(.delete(path, value)) }

    /// This update and every action of `other`.
    public func merging(_ other: UpdateExpression) -> UpdateExpression {
        var copy = self
        copy.actions += other.actions
        return copy
    }

    /// Whether the update has no action.
    public var isEmpty: Bool { actions.isEmpty }

    private func appending(_ action: Action) -> UpdateExpression {
        var copy = self
        copy.actions.append(action)
        return copy
    }
}

/// The right-hand side of a `SET` action: a value, a path, `if_not_exists`, `list_append`, or
/// one `+` / `-` of those. Literals are values.
///
/// The relative forms refer to the path being set: ``add(_:)`` is `path = path + n`,
/// ``ifNotExists(_:)`` is `path = if_not_exists(path, v)`, ``appending(_:)`` is
/// `path = list_append(path, list)`.
public struct SetValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    indirect enum Node: Sendable {
        case value(AttributeValue)
        case path(AttributePath)
        /// The path the action sets.
        case target
        case ifNotExists(Node, Node)
        case listAppend(Node, Node)
        case plus(Node, Node)
        case minus(Node, Node)
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// A string value.
    public init(stringLiteral value: String) { node = .value(.s(value)) }
    /// A number value.
    public init(integerLiteral value: Int) { node = .value(.n(DynamoNumber(value))) }
    /// A number value.
    public init(floatLiteral value: Double) { node = .value(ExpressionValue.number(value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { node = .value(.bool(value)) }

    /// Any value.
    public static func value(_ value: AttributeValue) -> SetValue { .init(.value(value)) }
    /// The value at another path.
    public static func path(_ path: AttributePath) -> SetValue { .init(.path(path)) }
    /// `if_not_exists(path, fallback)`: the value at `path`, or `fallback` when it is missing.
    public static func ifNotExists(_ path: AttributePath, _ fallback: SetValue) -> SetValue {
        .init(.ifNotExists(.path(path), fallback.node))
    }
    /// `list_append(first, second)`.
    public static func listAppend(_ first: SetValue, _ second: SetValue) -> SetValue { .init(.listAppend(first.node, second.node)) }
    /// `lhs + rhs`.
    public static func + (lhs: SetValue, rhs: SetValue) -> SetValue { .init(.plus(lhs.node, rhs.node)) }
    /// `lhs - rhs`.
    public static func - (lhs: SetValue, rhs: SetValue) -> SetValue { .init(.minus(lhs.node, rhs.node)) }

    /// `path = path + amount` (the attribute must exist; see ``add(_:ifMissing:)``).
    public static func add(_ amount: SetValue) -> SetValue { .init(.plus(.target, amount.node)) }
    /// `path = if_not_exists(path, start) + amount`: a counter that starts at `start`.
    public static func add(_ amount: SetValue, ifMissing start: SetValue) -> SetValue {
        .init(.plus(.ifNotExists(.target, start.node), amount.node))
    }
    /// `path = path - amount`.
    public static func subtract(_ amount: SetValue) -> SetValue { .init(.minus(.target, amount.node)) }
    /// `path = if_not_exists(path, fallback)`: sets the attribute only when it is missing.
    public static func ifNotExists(_ fallback: SetValue) -> SetValue { .init(.ifNotExists(.target, fallback.node)) }
    /// `path = list_append(path, elements)`.
    public static func appending(_ elements: [AttributeValue]) -> SetValue { .init(.listAppend(.target, .value(.l(elements)))) }
    /// `path = list_append(elements, path)`.
    public static func prepending(_ elements: [AttributeValue]) -> SetValue { .init(.listAppend(.value(.l(elements)), .target)) }
}
