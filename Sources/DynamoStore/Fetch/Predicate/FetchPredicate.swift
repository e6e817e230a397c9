/// A comparison operator of a fetch predicate.
public enum PredicateOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` (also written `=`).
    case equal = "=="
    /// `!=` (also written `<>`).
    case notEqual = "!="
    /// `<`.
    case less = "<"
    /// `<=` (also written `=<`).
    case lessOrEqual = "<="
    /// `>`.
    case greater = ">"
    /// `>=` (also written `=>`).
    case greaterOrEqual = ">="

    /// The operator with its sides swapped (`3 < age` is `age > 3`).
    var flipped: PredicateOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

/// Which objects a fetch wants, in the terms Core Data's `NSPredicate` uses: property key paths
/// compared with constants, combined with `AND`, `OR` and `NOT` in any mix.
///
/// Write one as a format string, with `%@` arguments and `$name` substitution variables:
///
/// ```swift
/// let adults = try FetchPredicate("age >= $min AND (name BEGINSWITH %@ OR city IN %@)",
///                                 "A", ["Oslo", "Bergen"])
///     .substituting(["min": 18])
/// ```
///
/// or in code with ``Field``: `Field("age") >= 18 && Field("name").beginsWith("A")`.
///
/// The left side of every comparison is a property of the fetched entity (or `relationship.key`
/// through a to-one relationship to the destination's hash key); the right side is a constant.
/// What DynamoDB cannot evaluate is refused with a ``FetchPredicateError`` that says why, never
/// answered with an empty result.
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// `keyPath <op> value`; `== nil` tests absence, `!= nil` presence.
    case compare(String, PredicateOperator, PredicateValue)
    /// `keyPath BETWEEN {lower, upper}` (inclusive).
    case between(String, PredicateValue, PredicateValue)
    /// `keyPath IN {a, b, …}` or `keyPath IN %@` with an array.
    case isIn(String, PredicateValue)
    /// `keyPath BEGINSWITH value` (strings and data).
    case beginsWith(String, PredicateValue)
    /// `keyPath CONTAINS value` (a substring of a string, bytes of data).
    case contains(String, PredicateValue)
    /// Every sub-predicate holds (`AND`, `&&`).
    case and([FetchPredicate])
    /// Some sub-predicate holds (`OR`, `||`).
    case or([FetchPredicate])
    /// The sub-predicate does not hold (`NOT`, `!`).
    case not(FetchPredicate)

    /// Parses a predicate in `NSPredicate`'s format syntax.
    ///
    /// - Parameters:
    ///   - format: the format string, e.g. `"name == %@ AND age > 3"`.
    ///   - arguments: one value per `%@` (or `%K` key path, `%d`, `%f`…), in order; `nil` for
    ///     `nil`.
    /// - Throws: ``FetchPredicateError`` for a syntax error, a wrong number of arguments, or a
    ///   construct DynamoDB cannot evaluate (`[c]` modifiers, `ENDSWITH`, `LIKE`, `MATCHES`,
    ///   `ANY`/`ALL`, `SUBQUERY`, `FUNCTION`, aggregates such as `@count`).
    public init(_ format: String, _ arguments: (any PredicateOperand)?...) throws(FetchPredicateError) {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses a predicate in `NSPredicate`'s format syntax with its arguments as an array.
    ///
    /// - Parameters:
    ///   - format: the format string.
    ///   - arguments: one value per `%@`, in order.
    /// - Throws: ``FetchPredicateError`` (see ``init(_:_:)``).
    public init(format: String, arguments: [(any PredicateOperand)?]) throws(FetchPredicateError) {
        var parser = try PredicateParser(format: format, arguments: arguments.map { $0?.predicateValue ?? .null })
        self = try parser.parse()
    }

    /// The predicate with every `$name` replaced by its value.
    ///
    /// ```swift
    /// let template = try FetchPredicate("age >= $min")
    /// let adults = try template.substituting(["min": 18])
    /// ```
    ///
    /// - Parameter variables: values by variable name (without `$`).
    /// - Throws: ``FetchPredicateError`` naming a variable that has no value.
    public func substituting(_ variables: [String: (any PredicateArgument)?]) throws(FetchPredicateError) -> FetchPredicate {
        let values = variables.mapValues { $0?.predicateValue ?? .null }
        return try mapValues { value throws(FetchPredicateError) in try value.substituting(values) }
    }

    /// The names of the substitution variables still in the predicate, sorted.
    public var variableNames: [String] {
        var names: Set<String> = []
        forEachValue { value in value.collectVariables(into: &names) }
        return names.sorted()
    }

    /// Applies `transform` to every constant of the predicate.
    func mapValues(_ transform: (PredicateValue) throws(FetchPredicateError) -> PredicateValue) throws(FetchPredicateError) -> FetchPredicate {
        switch self {
        case .constant: return self
        case .compare(let path, let op, let value): return .compare(path, op, try transform(value))
        case .between(let path, let low, let high): return .between(path, try transform(low), try transform(high))
        case .isIn(let path, let value): return .isIn(path, try transform(value))
        case .beginsWith(let path, let value): return .beginsWith(path, try transform(value))
        case .contains(let path, let value): return .contains(path, try transform(value))
        case .and(let parts):
            var mapped: [FetchPredicate] = []
            for part in parts { mapped.append(try part.mapValues(transform)) }
            return .and(mapped)
        case .or(let parts):
            var mapped: [FetchPredicate] = []
            for part in parts { mapped.append(try part.mapValues(transform)) }
            return .or(mapped)
        case .not(let inner): return .not(try inner.mapValues(transform))
        }
    }

    private func forEachValue(_ body: (PredicateValue) -> Void) {
        switch self {
        case .constant: break
        case .compare(_, _, let value), .isIn(_, let value), .beginsWith(_, let value), .contains(_, let value):
            body(value)
        case .between(_, let low, let high):
            body(low)
            body(high)
        case .and(let parts), .or(let parts):
            for part in parts { part.forEachValue(body) }
        case .not(let inner): inner.forEachValue(body)
        }
    }
}

extension FetchPredicate: CustomStringConvertible {
    /// The predicate in format syntax, fully parenthesized where `AND` and `OR` meet.
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .compare(let path, let op, let value): "\(path) \(op.rawValue) \(value.formatted)"
        case .between(let path, let low, let high): "\(path) BETWEEN {\(low.formatted), \(high.formatted)}"
        case .isIn(let path, let value): "\(path) IN \(value.formatted)"
        case .beginsWith(let path, let value): "\(path) BEGINSWITH \(value.formatted)"
        case .contains(let path, let value): "\(path) CONTAINS \(value.formatted)"
        case .and(let parts): parts.map(\.parenthesized).joined(separator: " AND ")
        case .or(let parts): parts.map(\.parenthesized).joined(separator: " OR ")
        case .not(let inner): "NOT " + inner.parenthesized
        }
    }

    private var parenthesized: String {
        switch self {
        case .and, .or, .not: "(\(description))"
        default: description
        }
    }
}

extension PredicateValue {
    func substituting(_ variables: [String: PredicateValue]) throws(FetchPredicateError) -> PredicateValue {
        switch self {
        case .variable(let name):
            guard let value = variables[name] else {
                throw FetchPredicateError("no value for substitution variable $\(name)")
            }
            return value
        case .list(let values):
            var result: [PredicateValue] = []
            for value in values { result.append(try value.substituting(variables)) }
            return .list(result)
        default:
            return self
        }
    }

    func collectVariables(into names: inout Set<String>) {
        switch self {
        case .variable(let name): names.insert(name)
        case .list(let values): for value in values { value.collectVariables(into: &names) }
        default: break
        }
    }
}
