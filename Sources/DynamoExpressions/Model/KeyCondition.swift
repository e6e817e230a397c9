import DynamoAPI

/// What a key condition says about one key attribute.
public enum KeyComparison: Sendable, Equatable {
    case equal(AttributeValue)
    case less(AttributeValue)
    case lessOrEqual(AttributeValue)
    case greater(AttributeValue)
    case greaterOrEqual(AttributeValue)
    case between(AttributeValue, AttributeValue)
    case beginsWith(AttributeValue)

    /// The values the comparison uses.
    public var values: [AttributeValue] {
        switch self {
        case .equal(let v), .less(let v), .lessOrEqual(let v), .greater(let v), .greaterOrEqual(let v), .beginsWith(let v):
            [v]
        case .between(let low, let high):
            [low, high]
        }
    }

    /// Whether `value` satisfies the comparison (same type required).
    public func matches(_ value: AttributeValue) -> Bool {
        switch self {
        case .equal(let v): return Ordering.equal(value, v)
        case .less(let v): return Ordering.compare(value, v).map { $0 < 0 } ?? false
        case .lessOrEqual(let v): return Ordering.compare(value, v).map { $0 <= 0 } ?? false
        case .greater(let v): return Ordering.compare(value, v).map { $0 > 0 } ?? false
        case .greaterOrEqual(let v): return Ordering.compare(value, v).map { $0 >= 0 } ?? false
        case .between(let low, let high):
            guard let a = Ordering.compare(low, value), let b = Ordering.compare(value, high) else { return false }
            return a <= 0 && b <= 0
        case .beginsWith(let prefix):
            return Predicate.beginsWith(.value(value), .value(prefix)).evaluate([:])
        }
    }
}

/// A Query's key condition as written (KeyConditionExpression or legacy `KeyConditions`): one
/// or two conditions on top-level attributes, not yet matched to a key schema.
public struct KeyCondition: Sendable, Equatable {
    /// Each condition: the attribute and what it must satisfy.
    public var terms: [(attribute: String, comparison: KeyComparison)] {
        zip(attributes, comparisons).map { ($0, $1) }
    }

    var attributes: [String]
    var comparisons: [KeyComparison]

    /// A key condition bound to a key schema: the partition key's value and the sort key's
    /// condition.
    public struct Bound: Sendable, Equatable {
        public var partitionValue: AttributeValue
        public var sortCondition: KeyComparison?
    }

    /// Matches the conditions to a table's or index's key schema.
    ///
    /// - Parameters:
    ///   - partitionKey: the partition key's name and type descriptor (`S`, `N` or `B`).
    ///   - sortKey: the sort key's name and type, if the schema has one.
    /// - Throws: `ValidationException` "Query condition missed key schema element" (a condition on
    ///   another attribute, or none on the partition key), "Query key condition not supported"
    ///   (the partition key not compared with `=`), "One or more parameter values were invalid:
    ///   Condition parameter type does not match schema type".
    public func bind(
        partitionKey: (name: String, type: String),
        sortKey: (name: String, type: String)?
    ) throws(DynamoError) -> Bound {
        var partition: KeyComparison?
        var sort: KeyComparison?
        for (attribute, comparison) in terms {
            if attribute == partitionKey.name {
                partition = comparison
            } else if let sortKey, attribute == sortKey.name {
                sort = comparison
            } else {
                throw ExpressionMessages.queryConditionMissedKeySchema
            }
        }
        guard let partition else { throw ExpressionMessages.queryConditionMissedKeySchema }
        guard case .equal(let value) = partition else { throw ExpressionMessages.queryKeyConditionSupported }
        let mismatch = ExpressionMessages.conditionParameterTypeDoesMatch
        guard value.typeDescriptor == partitionKey.type else { throw mismatch }
        if let sort, let sortKey, sort.values.contains(where: { $0.typeDescriptor != sortKey.type }) { throw mismatch }
        return Bound(partitionValue: value, sortCondition: sort)
    }

    public static func == (lhs: KeyCondition, rhs: KeyCondition) -> Bool {
        lhs.attributes == rhs.attributes && lhs.comparisons == rhs.comparisons
    }
}
