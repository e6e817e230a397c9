import DynamoAPI
import DynamoClient

/// Chooses the cheapest DynamoDB operation a resolved predicate allows.
///
/// In order: the full primary key with `==` → `GetItem`; the hash key `IN` a set (or an `OR`
/// of `==`) with the range key fixed likewise → `BatchGetItem`; all partition key attributes
/// of the table or a declared index with `==`, best with a condition on its sort key → `Query`
/// (the table before an index with the same number of constrained keys); otherwise `Scan`.
struct FetchPlanner {
    let entity: EntityDescription
    /// Whether global indexes may be queried (not for strongly consistent reads, which
    /// DynamoDB does not offer on them).
    var allowsGlobalIndexes = true

    /// The key attributes of something that can be queried: the table or one index.
    private struct KeySchema {
        var index: IndexDescription?
        var partition: [String]
        var sort: [String]
    }

    /// What a key schema's constrained keys give a query.
    private struct KeyMatch {
        var schema: KeySchema
        var used: Set<Int>
        var terms: [StoragePredicate]
        var constrained: Int
        var sortAttribute: String?
    }

    func storageName(_ property: String) -> String {
        entity.attribute(named: property)?.storageName ?? entity.relationship(named: property)?.storageName ?? property
    }

    /// The storage names of the attributes every stored item has (non-optional ones).
    private var requiredAttributes: Set<String> {
        Set(entity.attributes.filter { !$0.isOptional }.map(\.storageName))
    }

    /// The storage names of the table's key attributes.
    var tableKeys: [String] { entity.keyAttributeNames.map(storageName) }

    /// Plans a read.
    ///
    /// - Parameters:
    ///   - predicate: the resolved predicate.
    ///   - sorts: the resolved sort keys.
    ///   - neededAttributes: the storage names the result needs (`nil`: every attribute).
    func plan(_ predicate: StoragePredicate, sorts: [StorageSort], neededAttributes: Set<String>?) -> FetchPlan {
        if predicate == .constant(false) { return FetchPlan(operation: .none, tableName: entity.tableName) }
        let conjuncts = predicate.conjuncts
        if var plan = keyLookup(conjuncts) {
            plan.sortsInMemory = plan.keyCount > 1 && !sorts.isEmpty
            return plan
        }
        if let match = bestQuery(conjuncts), let plan = query(match, conjuncts: conjuncts, sorts: sorts, needed: neededAttributes) {
            return plan
        }
        var plan = FetchPlan(operation: .scan, tableName: entity.tableName)
        plan.positionAttributes = tableKeys
        if predicate != .constant(true) {
            if let rendered = try? Expressions(filter: predicate.condition).rendered() {
                plan.filter = rendered.filter
                plan.serverFilter = predicate
                plan.expressionAttributeNames = rendered.names
                plan.expressionAttributeValues = rendered.values
            } else {
                // Not expressible as a FilterExpression (request validation normally refuses
                // such a predicate first): tested in memory on every item read.
                setResidual(&plan, predicate)
            }
        }
        plan.sortsInMemory = !sorts.isEmpty
        return plan
    }

    // MARK: - GetItem and BatchGetItem

    /// The values a conjunct fixes an attribute to: `a == v`, `a IN {…}`, or an `OR` of those.
    private static func fixedValues(of attribute: String, in conjunct: StoragePredicate) -> [AttributeValue]? {
        switch conjunct {
        case .compare(attribute, .equal, let value): return [value]
        case .isIn(attribute, let values): return values
        case .or(let parts):
            var values: [AttributeValue] = []
            for part in parts {
                guard let more = fixedValues(of: attribute, in: part) else { return nil }
                values += more.filter { !values.contains($0) }
            }
            return values
        default: return nil
        }
    }

    private func keyLookup(_ conjuncts: [StoragePredicate]) -> FetchPlan? {
        var used: Set<Int> = []
        var valuesPerKey: [[AttributeValue]] = []
        for key in tableKeys {
            guard
                let (index, values) = conjuncts.enumerated().lazy
                    .compactMap({ offset, conjunct in Self.fixedValues(of: key, in: conjunct).map { (offset, $0) } }).first
            else { return nil }
            used.insert(index)
            valuesPerKey.append(values)
        }
        var keys: [Item] = [[:]]
        for (name, values) in zip(tableKeys, valuesPerKey) {
            keys = keys.flatMap { partial in values.map { partial.merging([name: $0]) { $1 } } }
        }
        var plan = FetchPlan(operation: keys.count == 1 ? .getItem : .batchGetItem, tableName: entity.tableName)
        plan.keys = keys
        plan.keyCount = keys.count
        plan.positionAttributes = tableKeys
        setResidual(&plan, StoragePredicate.all(conjuncts.enumerated().filter { !used.contains($0.offset) }.map(\.element)))
        return plan
    }

    // MARK: - Query

    private var schemas: [KeySchema] {
        [KeySchema(index: nil, partition: [storageName(entity.hashKey)], sort: entity.rangeKey.map { [storageName($0)] } ?? [])]
            + entity.indexes.filter { allowsGlobalIndexes || $0.kind == .local }
            .map { KeySchema(index: $0, partition: $0.partitionKey.map(storageName), sort: $0.sortKey.map(storageName)) }
    }

    private static func isSortCondition(_ conjunct: StoragePredicate, on attribute: String) -> Bool {
        switch conjunct {
        case .compare(attribute, let op, _): op != .notEqual
        case .between(attribute, _, _): true
        case .beginsWith(attribute, let prefix): if case .s = prefix { true } else if case .b = prefix { true } else { false }
        default: false
        }
    }

    /// Whether a conjunct can only hold for items that have the attribute.
    private static func requiresExistence(of attribute: String, _ conjunct: StoragePredicate) -> Bool {
        switch conjunct {
        case .compare(attribute, let op, _): op != .notEqual
        case .exists(attribute), .between(attribute, _, _), .isIn(attribute, _), .beginsWith(attribute, _),
            .contains(attribute, _):
            true
        default: false
        }
    }

    private func match(_ schema: KeySchema, _ conjuncts: [StoragePredicate]) -> KeyMatch? {
        var used: Set<Int> = []
        var terms: [StoragePredicate] = []
        for attribute in schema.partition {
            guard
                let index = conjuncts.firstIndex(where: {
                    if case .compare(attribute, .equal, _) = $0 { true } else { false }
                })
            else { return nil }
            used.insert(index)
            terms.append(conjuncts[index])
        }
        var sortAttribute = schema.sort.first
        for attribute in schema.sort {
            sortAttribute = attribute
            if let index = conjuncts.firstIndex(where: { if case .compare(attribute, .equal, _) = $0 { true } else { false } }),
                attribute != schema.sort.last
            {
                used.insert(index)
                terms.append(conjuncts[index])
                continue
            }
            if let index = conjuncts.firstIndex(where: { Self.isSortCondition($0, on: attribute) }) {
                used.insert(index)
                terms.append(conjuncts[index])
            }
            break
        }
        // An index holds only the items that have every key attribute (indexes are sparse):
        // it answers the predicate only when the predicate requires them all to exist, or the
        // model does (a non-optional attribute is in every item the store writes).
        if schema.index != nil {
            for attribute in schema.sort
            where !requiredAttributes.contains(attribute)
                && !conjuncts.contains(where: { Self.requiresExistence(of: attribute, $0) })
            {
                return nil
            }
        }
        return KeyMatch(schema: schema, used: used, terms: terms, constrained: terms.count, sortAttribute: sortAttribute)
    }

    private func bestQuery(_ conjuncts: [StoragePredicate]) -> KeyMatch? {
        var best: KeyMatch?
        for schema in schemas {
            guard let candidate = match(schema, conjuncts) else { continue }
            if let current = best {
                let currentAll = current.schema.index.map { $0.projection == .all } ?? true
                let candidateAll = candidate.schema.index.map { $0.projection == .all } ?? true
                let better =
                    candidate.constrained > current.constrained
                    || (candidate.constrained == current.constrained && candidateAll && !currentAll)
                if !better { continue }
            }
            best = candidate
        }
        return best
    }

    /// The storage names an index holds (`nil`: every attribute).
    private func projected(_ index: IndexDescription?) -> Set<String>? {
        guard let index else { return nil }
        let keys = Set(tableKeys + index.partitionKey.map(storageName) + index.sortKey.map(storageName))
        switch index.projection {
        case .all: return nil
        case .keysOnly: return keys
        case .include(let names): return keys.union(names.map(storageName))
        }
    }

    /// The query plan of a key match; `nil` when the builder refuses its expressions (a scan
    /// is planned then).
    private func query(_ match: KeyMatch, conjuncts: [StoragePredicate], sorts: [StorageSort], needed: Set<String>?) -> FetchPlan? {
        var plan = FetchPlan(operation: .query, tableName: entity.tableName)
        plan.indexName = match.schema.index?.name
        let keyAttributes = Set(match.schema.partition + match.schema.sort)
        plan.positionAttributes = tableKeys + (match.schema.partition + match.schema.sort).filter { !tableKeys.contains($0) }
        let available = projected(match.schema.index)
        // A local index reads the attributes it does not project from the table itself, within
        // the Query, when the request names them (in its ProjectionExpression, or by
        // `Select=ALL_ATTRIBUTES`); a global index cannot.
        let isLocal = match.schema.index?.kind == .local
        var server: [StoragePredicate] = []
        var memory: [StoragePredicate] = []
        for (offset, conjunct) in conjuncts.enumerated() where !match.used.contains(offset) {
            let names = conjunct.attributeNames
            // A filter may not name the queried key attributes, and a global index's filter
            // sees only projected attributes: the rest is tested in memory.
            if !names.isDisjoint(with: keyAttributes) || (!isLocal && available.map { !names.isSubset(of: $0) } ?? false) {
                memory.append(conjunct)
            } else {
                server.append(conjunct)
            }
        }
        if let available {
            let wanted = needed ?? []
            if isLocal {
                // Named in the ProjectionExpression, so the filter sees them in the fetched item.
                plan.unprojectedFilterAttributes = StoragePredicate.all(server).attributeNames.subtracting(available)
                plan.indexReadsFromTable =
                    needed == nil || !wanted.isSubset(of: available)
                    || !plan.unprojectedFilterAttributes.isEmpty
            } else {
                plan.fetchesFromTable =
                    needed == nil || !wanted.isSubset(of: available)
                    || !StoragePredicate.all(memory).attributeNames.isSubset(of: available)
            }
        }
        let filter = StoragePredicate.all(server)
        let terms = ConditionExpression.all(match.terms.map(\.condition))
        guard let terms,
            let keyCondition = try? KeyConditionExpression(
                terms, partitionKeys: match.schema.partition,
                sortKeys: match.schema.sort),
            let rendered = try? Expressions(
                keyCondition: keyCondition,
                filter: filter == .constant(true) ? nil : filter.condition
            ).rendered()
        else { return nil }
        plan.keyCondition = rendered.keyCondition
        if filter != .constant(true) {
            plan.filter = rendered.filter
            plan.serverFilter = filter
        }
        plan.expressionAttributeNames = rendered.names
        plan.expressionAttributeValues = rendered.values
        setResidual(&plan, StoragePredicate.all(memory))
        if sorts.count == 1, sorts[0].attribute == match.sortAttribute {
            plan.scanIndexForward = sorts[0].ascending
        } else {
            plan.sortsInMemory = !sorts.isEmpty
        }
        return plan
    }

    private func setResidual(_ plan: inout FetchPlan, _ residual: StoragePredicate) {
        plan.residual = residual
        guard residual != .constant(true) else { return }
        plan.memoryFilter = residual.readable
    }
}
