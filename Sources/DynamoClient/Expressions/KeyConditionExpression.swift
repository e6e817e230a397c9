import DynamoAPI

/// A typed `KeyConditionExpression`: the partition key equal to a value, optionally a
/// condition on the sort key.
///
/// ```swift
/// let key = KeyConditionExpression.partition("pk", "user#1").sort("sk", .beginsWith("2026-"))
/// // #n0 = :v0 AND begins_with(#n1, :v1)
/// ```
///
/// Only what DynamoDB accepts in a key condition can be written; rendering also rejects
/// values that are not strings, numbers or binaries, a `begins_with` on a number, `BETWEEN`
/// bounds out of order, and a sort condition on the partition key's name.
/// ``init(_:partitionKey:sortKey:)`` converts a ``ConditionExpression`` and rejects the
/// operators a key condition cannot use.
public struct KeyConditionExpression: Sendable {
    /// A condition on the sort key.
    public struct SortCondition: Sendable {
        enum Kind: Sendable {
            case compare(ConditionExpression.Comparator, AttributeValue)
            case between(AttributeValue, AttributeValue)
            case beginsWith(AttributeValue)
        }

        let kind: Kind

        /// `sk = value`.
        public static func equal(_ value: ExpressionValue) -> SortCondition { .init(kind: .compare(.equal, value.value)) }
        /// `sk < value`.
        public static func lessThan(_ value: ExpressionValue) -> SortCondition { .init(kind: .compare(.less, value.value)) }
        /// `sk <= value`.
        public static func lessThanOrEqual(_ value: ExpressionValue) -> SortCondition { .init(kind: .compare(.lessOrEqual, value.value)) }
        /// `sk > value`.
        public static func greaterThan(_ value: ExpressionValue) -> SortCondition { .init(kind: .compare(.greater, value.value)) }
        /// `sk >= value`.
        public static func greaterThanOrEqual(_ value: ExpressionValue) -> SortCondition {
            .init(kind: .compare(.greaterOrEqual, value.value))
        }
        /// `sk BETWEEN low AND high` (inclusive).
        public static func between(_ low: ExpressionValue, _ high: ExpressionValue) -> SortCondition {
            .init(kind: .between(low.value, high.value))
        }
        /// `begins_with(sk, prefix)`: a string or binary prefix.
        public static func beginsWith(_ prefix: ExpressionValue) -> SortCondition { .init(kind: .beginsWith(prefix.value)) }
    }

    /// The partition key attributes and their values (several for a multi-attribute key).
    let partitions: [(name: String, value: AttributeValue)]
    /// The sort key conditions, in key order (several for a multi-attribute key: all `=` but the last).
    let sorts: [(name: String, condition: SortCondition)]

    /// `partitionKey = value`.
    ///
    /// - Parameters:
    ///   - name: The partition key attribute's name (taken literally: key attributes are top level).
    ///   - value: Its value.
    public static func partition(_ name: String, _ value: ExpressionValue) -> KeyConditionExpression {
        KeyConditionExpression(partitions: [(name, value.value)], sorts: [])
    }

    /// This key condition and `name = value` on a further attribute of a multi-attribute
    /// partition key.
    public func partition(_ name: String, _ value: ExpressionValue) -> KeyConditionExpression {
        KeyConditionExpression(partitions: partitions + [(name, value.value)], sorts: sorts)
    }

    /// This key condition and a condition on the sort key `name` (for a multi-attribute sort
    /// key, call once per attribute in key order: every condition but the last is `.equal`).
    public func sort(_ name: String, _ condition: SortCondition) -> KeyConditionExpression {
        KeyConditionExpression(partitions: partitions, sorts: sorts + [(name, condition)])
    }

    /// The expression text, its names and values added to `renderer`.
    func render(_ renderer: inout ExpressionRenderer) throws(ExpressionBuildError) -> String {
        var seen: Set<String> = []
        for name in partitions.map(\.name) + sorts.map(\.name) where !seen.insert(name).inserted {
            throw ExpressionBuildError("the key condition names \(name) twice")
        }
        var terms: [String] = []
        for (name, value) in partitions {
            try Self.checkKeyValue(value, of: name)
            terms.append("\(renderer.name(name)) = \(try renderer.value(value))")
        }
        for (position, (name, condition)) in sorts.enumerated() {
            let key = renderer.name(name)
            switch condition.kind {
            case .compare(let comparator, let value):
                guard comparator != .notEqual else { throw ExpressionBuildError("a key condition cannot use <> (on \(name))") }
                guard comparator == .equal || position == sorts.count - 1 else {
                    throw ExpressionBuildError("only the last sort key condition may be a range; \(name) is followed by more")
                }
                try Self.checkKeyValue(value, of: name)
                terms.append("\(key) \(comparator.rawValue) \(try renderer.value(value))")
            case .between(let low, let high):
                guard position == sorts.count - 1 else {
                    throw ExpressionBuildError("only the last sort key condition may be a range; \(name) is followed by more")
                }
                try Self.checkKeyValue(low, of: name)
                try Self.checkKeyValue(high, of: name)
                try ConditionExpression.checkBounds(low, high)
                terms.append("\(key) BETWEEN \(try renderer.value(low)) AND \(try renderer.value(high))")
            case .beginsWith(let prefix):
                guard position == sorts.count - 1 else {
                    throw ExpressionBuildError("only the last sort key condition may be a range; \(name) is followed by more")
                }
                guard prefix.typeDescriptor == "S" || prefix.typeDescriptor == "B" else {
                    throw ExpressionBuildError("begins_with on the sort key \(name) takes a string or binary prefix, not \(prefix.typeDescriptor)")
                }
                terms.append("begins_with(\(key), \(try renderer.value(prefix)))")
            }
        }
        return try ExpressionRenderer.checkLength(terms.joined(separator: " AND "), kind: "KeyConditionExpression")
    }

    private static func checkKeyValue(_ value: AttributeValue, of name: String) throws(ExpressionBuildError) {
        guard ["S", "N", "B"].contains(value.typeDescriptor) else {
            throw ExpressionBuildError("a key condition compares \(name) with a string, number or binary, not \(value.typeDescriptor)")
        }
    }
}
