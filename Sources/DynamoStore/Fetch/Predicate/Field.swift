/// A property of the fetched entity, for writing predicates in code.
///
/// ```swift
/// let p = Field("age") >= 18 && (Field("name").beginsWith("A") || Field("city").isIn(["Oslo", "Bergen"]))
/// let q = !Field("comment").isNil
/// ```
///
/// The operators build the same ``FetchPredicate`` the format syntax does, so the same checks
/// apply when the request is built.
public struct Field: Sendable, Hashable {
    /// The property name (or `relationship.key` through a to-one relationship).
    public var keyPath: String

    /// Names a property.
    public init(_ keyPath: String) {
        self.keyPath = keyPath
    }

    /// `keyPath BEGINSWITH prefix`.
    public func beginsWith(_ prefix: some PredicateArgument) -> FetchPredicate { .beginsWith(keyPath, prefix.predicateValue) }
    /// `keyPath CONTAINS part`.
    public func contains(_ part: some PredicateArgument) -> FetchPredicate { .contains(keyPath, part.predicateValue) }
    /// `keyPath BETWEEN {lower, upper}`.
    public func between(_ lower: some PredicateArgument, _ upper: some PredicateArgument) -> FetchPredicate {
        .between(keyPath, lower.predicateValue, upper.predicateValue)
    }
    /// `keyPath IN values`.
    public func isIn<Values: Sequence>(_ values: Values) -> FetchPredicate where Values.Element: PredicateArgument {
        .isIn(keyPath, .list(values.map(\.predicateValue)))
    }
    /// `keyPath == nil`: the attribute is absent.
    public var isNil: FetchPredicate { .compare(keyPath, .equal, .null) }

    /// `field == value`.
    public static func == (field: Field, value: some PredicateArgument) -> FetchPredicate { field.compare(.equal, value) }
    /// `field != value`.
    public static func != (field: Field, value: some PredicateArgument) -> FetchPredicate { field.compare(.notEqual, value) }
    /// `field < value`.
    public static func < (field: Field, value: some PredicateArgument) -> FetchPredicate { field.compare(.less, value) }
    /// `field <= value`.
    public static func <= (field: Field, value: some PredicateArgument) -> FetchPredicate { field.compare(.lessOrEqual, value) }
    /// `field > value`.
    public static func > (field: Field, value: some PredicateArgument) -> FetchPredicate { field.compare(.greater, value) }
    /// `field >= value`.
    public static func >= (field: Field, value: some PredicateArgument) -> FetchPredicate { field.compare(.greaterOrEqual, value) }

    private func compare(_ op: PredicateOperator, _ value: some PredicateArgument) -> FetchPredicate {
        .compare(keyPath, op, value.predicateValue)
    }
}

extension FetchPredicate {
    /// Both hold (nested ANDs flattened).
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .and(lhs.parts(ofAnd: true) + rhs.parts(ofAnd: true))
    }

    /// Either holds (nested ORs flattened).
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .or(lhs.parts(ofAnd: false) + rhs.parts(ofAnd: false))
    }

    /// Does not hold.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        .not(predicate)
    }

    private func parts(ofAnd: Bool) -> [FetchPredicate] {
        switch self {
        case .and(let parts) where ofAnd: parts
        case .or(let parts) where !ofAnd: parts
        default: [self]
        }
    }
}
