import DynamoAPI
import DynamoExpressions

/// One projected path of a SELECT and the name it comes back under (its last step: `b` for
/// `a.b`, `k[1]` for `m.k[1]`).
package struct PartiQLProjection: Sendable {
    package var label: String
    package var path: DocumentPath

    /// Projects `item`: each path found, under its label.
    package static func apply(_ projection: [PartiQLProjection], to item: Item) -> Item {
        var result: Item = [:]
        for entry in projection {
            if let value = entry.path.value(in: item) { result[entry.label] = value }
        }
        return result
    }
}

/// How a SELECT reads: a Query of some partitions (a WHERE that fixes the partition key with
/// `=` or `IN`), or a Scan; the whole WHERE is the filter either way.
package struct PartiQLSelectPlan: Sendable {
    package var table: String
    package var index: String?
    /// `nil` for `SELECT *`.
    package var projection: [PartiQLProjection]?
    /// The WHERE clause, applied to every item read.
    package var filter: Predicate?
    /// The partition key values to query, in reading order; `nil` to scan.
    package var partitions: [AttributeValue]?
    /// The partition key's name (when querying).
    package var partitionKey: String?
    /// The sort key's name and the condition on it that narrows the query.
    package var sortKey: String?
    package var sortCondition: KeyComparison?
    /// ORDER BY the sort key DESC.
    package var descending = false
    /// How many key reads the WHERE decomposes into: the partition key values times the values
    /// of an `IN` on the sort key (1 for a scan or a single partition).
    package var decomposedReads = 1

    /// DynamoDB's limit on ``decomposedReads`` ("at max 50 hash attribute values").
    package static let maximumDecomposedReads = 50
    /// A SELECT that decomposes into several reads returns pages of at most this many items
    /// (DynamoDB's PartiQL operator reference: "Results are returned in pages of up to 10 items").
    package static let decomposedPageSize = 10
}

extension PartiQLTranslator {
    /// Plans a SELECT against the key schema of the table or index it reads (`nil`: scan only).
    ///
    /// - Throws: DynamoDB's ORDER BY, projection and WHERE messages.
    package static func select(
        _ statement: PartiQLStatement, schema: PartiQLSchema?,
        parameters: [AttributeValue]
    ) throws(DynamoError) -> PartiQLSelectPlan {
        guard case .select(let select) = statement else { throw PartiQLMessages.unsupportedOperation("non-SELECT read") }
        if let refusal = select.projectionError { throw refusal }
        let binder = PartiQLBinder(parameters: parameters)
        var plan = PartiQLSelectPlan(table: select.table, index: select.index)
        if let paths = select.projection {
            var seen = Set<String>()
            plan.projection = []
            for path in paths {
                let label = Self.label(path)
                guard seen.insert(label).inserted else { throw PartiQLMessages.duplicateIdentifier(label) }
                plan.projection?.append(PartiQLProjection(label: label, path: path))
            }
        }
        if let whereClause = select.whereClause {
            guard PartiQLConditions.isBoolean(whereClause) else { throw PartiQLMessages.whereNotBoolean }
            plan.filter = try PartiQLConditions(binder: binder).predicate(whereClause)
        }
        if let schema {
            try planKeys(&plan, select: select, schema: schema, binder: binder)
        }
        try planOrder(&plan, select: select, schema: schema)
        return plan
    }

    private static func planKeys(
        _ plan: inout PartiQLSelectPlan, select: PartiQLSelect, schema: PartiQLSchema,
        binder: PartiQLBinder
    ) throws(DynamoError) {
        try PartiQLOverlap.check(select.whereClause, schema: schema, binder: binder)
        let conjuncts = KeyedWhere.conjuncts(select.whereClause)
        let partition = schema.partitionKey
        for conjunct in conjuncts {
            if let (name, value) = try KeyedWhere.keyEquality(conjunct, schema: schema, binder: binder), name == partition.name {
                plan.partitions = [value]
                break
            }
            if case .isIn(.path(let path), let list) = conjunct, path.elements.count == 1, path.attribute == partition.name,
                case .l(let values)? = try binder.constant(list)
            {
                plan.partitions = unique(values)
                break
            }
            // `pk = 'a' OR pk = 'b'` reads the same partitions as `pk IN ['a', 'b']`.
            if case .binary("OR", _, _) = conjunct, let values = try partitionAlternatives(conjunct, schema: schema, binder: binder) {
                plan.partitions = unique(values)
                break
            }
        }
        guard let partitions = plan.partitions else { return }
        var sortValues = 1
        if let sort = schema.sortKey {
            for conjunct in conjuncts {
                if case .isIn(.path(let path), let list) = conjunct, path.elements.count == 1, path.attribute == sort.name,
                    case .l(let values)? = try binder.constant(list)
                {
                    sortValues = unique(values).count
                    break
                }
            }
        }
        plan.decomposedReads = partitions.count * sortValues
        guard plan.decomposedReads <= PartiQLSelectPlan.maximumDecomposedReads else {
            throw PartiQLMessages.tooManyDecomposedReads
        }
        // A value of another type than the key's matches no item.
        plan.partitions = partitions.filter { $0.typeDescriptor == partition.type }
        plan.partitionKey = partition.name
        guard let sort = schema.sortKey else { return }
        plan.sortKey = sort.name
        for conjunct in conjuncts {
            if let comparison = try sortComparison(conjunct, sortKey: sort, binder: binder) {
                plan.sortCondition = comparison
                break
            }
        }
    }

    private static func unique(_ values: [AttributeValue]) -> [AttributeValue] {
        var unique: [AttributeValue] = []
        for value in values where !unique.contains(value) { unique.append(value) }
        return unique
    }

    /// The partition key values of a disjunction whose every branch is `pk = constant`.
    private static func partitionAlternatives(
        _ expression: PartiQLExpression, schema: PartiQLSchema,
        binder: PartiQLBinder
    ) throws(DynamoError) -> [AttributeValue]? {
        if case .binary("OR", let left, let right) = expression {
            guard let a = try partitionAlternatives(left, schema: schema, binder: binder),
                let b = try partitionAlternatives(right, schema: schema, binder: binder)
            else { return nil }
            return a + b
        }
        guard let (name, value) = try KeyedWhere.keyEquality(expression, schema: schema, binder: binder),
            name == schema.partitionKey.name
        else { return nil }
        return [value]
    }

    /// A conjunct that narrows the sort key: a comparison, BETWEEN or begins_with.
    static func sortComparison(
        _ conjunct: PartiQLExpression, sortKey: PartiQLKey,
        binder: PartiQLBinder
    ) throws(DynamoError) -> KeyComparison? {
        func isSortKey(_ expression: PartiQLExpression) -> Bool { expression.isAttribute(sortKey.name) }
        func typed(_ expression: PartiQLExpression) throws(DynamoError) -> AttributeValue? {
            guard let value = try binder.constant(expression), value.typeDescriptor == sortKey.type else { return nil }
            return value
        }
        switch conjunct {
        case .binary(let op, let left, let right):
            let flipped: Bool
            let constant: PartiQLExpression
            if isSortKey(left) {
                (flipped, constant) = (false, right)
            } else if isSortKey(right) {
                (flipped, constant) = (true, left)
            } else {
                return nil
            }
            guard let value = try typed(constant) else { return nil }
            switch (op, flipped) {
            case ("=", _): return .equal(value)
            case ("<", false), (">", true): return .less(value)
            case ("<=", false), (">=", true): return .lessOrEqual(value)
            case (">", false), ("<", true): return .greater(value)
            case (">=", false), ("<=", true): return .greaterOrEqual(value)
            default: return nil
            }
        case .between(let value, let lower, let upper) where isSortKey(value):
            guard let low = try typed(lower), let high = try typed(upper),
                (Ordering.compare(low, high) ?? 1) <= 0
            else { return nil }
            return .between(low, high)
        case .call("begins_with", let arguments, _) where arguments.count == 2 && isSortKey(arguments[0]) && sortKey.type != "N":
            guard let prefix = try typed(arguments[1]) else { return nil }
            return .beginsWith(prefix)
        default:
            return nil
        }
    }

    private static func planOrder(
        _ plan: inout PartiQLSelectPlan, select: PartiQLSelect,
        schema: PartiQLSchema?
    ) throws(DynamoError) {
        guard !select.orderBy.isEmpty else { return }
        guard select.whereClause != nil else { throw PartiQLMessages.orderByWithoutWhere }
        for term in select.orderBy where !(schema?.keys.contains { $0.name == term.name } ?? false) {
            throw PartiQLMessages.orderByNotKey(term.name)
        }
        guard let partitions = plan.partitions else { throw PartiQLMessages.orderByWithoutHashKey }
        let partitionTerm = select.orderBy.first { $0.name == plan.partitionKey }
        if partitions.count > 1, partitionTerm == nil { throw PartiQLMessages.orderByHashKeyNeeded }
        if let partitionTerm {
            plan.partitions = partitions.sorted { a, b in
                let order = Ordering.compare(a, b) ?? 0
                return partitionTerm.descending ? order > 0 : order < 0
            }
        }
        if let sortTerm = select.orderBy.first(where: { $0.name == plan.sortKey }) {
            plan.descending = sortTerm.descending
        }
    }

    /// The name a projected path comes back under: its last named step and the indexes after it.
    static func label(_ path: DocumentPath) -> String {
        var label = ""
        for element in path.elements {
            switch element {
            case .attribute(let name): label = name
            case .index(let index): label += "[\(index)]"
            }
        }
        return label
    }
}
