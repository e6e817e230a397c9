import DynamoAPI

extension KeyConditionExpression {
    /// Converts a condition into a key condition, rejecting what DynamoDB rejects in a
    /// `KeyConditionExpression`: `OR`, `NOT`, `<>`, `IN`, functions other than `begins_with`,
    /// `size`, nested paths, attributes other than the keys, a partition key attribute without
    /// an equality, two conditions on one key.
    ///
    /// ```swift
    /// let key = try KeyConditionExpression(
    ///     .attribute("pk") == "a" && .attribute("sk").between("2026-01", "2026-12"),
    ///     partitionKey: "pk", sortKey: "sk")
    /// ```
    ///
    /// - Parameters:
    ///   - condition: `partitionKey = value`, optionally `AND` a condition on `sortKey`.
    ///   - partitionKey: The partition key's name.
    ///   - sortKey: The sort key's name, if the table or index has one.
    /// - Throws: ``ExpressionBuildError`` naming the part a key condition cannot hold.
    public init(_ condition: ConditionExpression, partitionKey: String, sortKey: String? = nil) throws(ExpressionBuildError) {
        try self.init(condition, partitionKeys: [partitionKey], sortKeys: sortKey.map { [$0] } ?? [])
    }

    /// Converts a condition on a multi-attribute key (see ``init(_:partitionKey:sortKey:)``):
    /// every partition key attribute with `=`, sort key conditions in key order.
    ///
    /// - Throws: ``ExpressionBuildError`` naming the part a key condition cannot hold.
    public init(_ condition: ConditionExpression, partitionKeys: [String], sortKeys: [String]) throws(ExpressionBuildError) {
        var partitions: [String: AttributeValue] = [:]
        var sorts: [String: SortCondition] = [:]
        for term in Self.conjuncts(condition.node) {
            let (name, sortCondition) = try Self.keyTerm(term)
            if partitionKeys.contains(name), case .compare(.equal, let value) = sortCondition.kind, partitions[name] == nil {
                partitions[name] = value
            } else if sortKeys.contains(name), sorts[name] == nil {
                sorts[name] = sortCondition
            } else if partitionKeys.contains(name) || sortKeys.contains(name) {
                throw ExpressionBuildError("a key condition has one condition per key; \(name) has two (or a partition key condition other than =)")
            } else {
                throw ExpressionBuildError(
                    "a key condition names only the key attributes; \(name) is not one of \((partitionKeys + sortKeys).joined(separator: ", "))")
            }
        }
        var partitionTerms: [(name: String, value: AttributeValue)] = []
        for name in partitionKeys {
            guard let value = partitions[name] else { throw ExpressionBuildError("a key condition needs \(name) = value") }
            partitionTerms.append((name, value))
        }
        let constrained = sortKeys.prefix { sorts[$0] != nil }
        if let skipped = sortKeys.dropFirst(constrained.count).first(where: { sorts[$0] != nil }) {
            throw ExpressionBuildError("a key condition constrains sort key attributes left to right; \(skipped) comes after an unconstrained one")
        }
        self.init(partitions: partitionTerms, sorts: sortKeys.compactMap { name in sorts[name].map { (name, $0) } })
    }

    private static func conjuncts(_ node: ConditionExpression.Node) -> [ConditionExpression.Node] {
        if case .and(let left, let right) = node { return conjuncts(left) + conjuncts(right) }
        return [node]
    }

    /// The key a term constrains and how.
    private static func keyTerm(_ node: ConditionExpression.Node) throws(ExpressionBuildError) -> (String, SortCondition) {
        switch node {
        case .compare(let left, let comparator, let right) where comparator != .notEqual:
            switch (left.kind, right.kind) {
            case (.path(let path), .value(let value)):
                return (try keyName(path), SortCondition(kind: .compare(comparator, value)))
            case (.value(let value), .path(let path)):
                let mirrored: ConditionExpression.Comparator =
                    switch comparator {
                    case .less: .greater
                    case .lessOrEqual: .greaterOrEqual
                    case .greater: .less
                    case .greaterOrEqual: .lessOrEqual
                    default: comparator
                    }
                return (try keyName(path), SortCondition(kind: .compare(mirrored, value)))
            default:
                throw ExpressionBuildError("a key condition compares a key attribute with a value (no size(), no two attributes)")
            }
        case .between(let operand, let low, let high):
            guard case .path(let path) = operand.kind, case .value(let lowValue) = low.kind, case .value(let highValue) = high.kind else {
                throw ExpressionBuildError("a key condition's BETWEEN takes a key attribute and two values")
            }
            return (try keyName(path), SortCondition(kind: .between(lowValue, highValue)))
        case .beginsWith(let path, let prefix):
            guard case .value(let value) = prefix.kind else { throw ExpressionBuildError("a key condition's begins_with takes a value prefix") }
            return (try keyName(path), SortCondition(kind: .beginsWith(value)))
        case .compare: throw ExpressionBuildError("a key condition cannot use <>")
        case .or: throw ExpressionBuildError("a key condition cannot use OR")
        case .not: throw ExpressionBuildError("a key condition cannot use NOT")
        case .isIn: throw ExpressionBuildError("a key condition cannot use IN")
        case .exists, .notExists, .type, .contains:
            throw ExpressionBuildError("a key condition allows begins_with only among functions")
        case .and: throw ExpressionBuildError("a key condition is a conjunction of key terms")
        }
    }

    private static func keyName(_ path: AttributePath) throws(ExpressionBuildError) -> String {
        guard path.problem == nil, path.elements.count == 1, case .name(let name) = path.elements[0] else {
            throw ExpressionBuildError("a key condition names top-level key attributes, not \(path)")
        }
        return name
    }
}
