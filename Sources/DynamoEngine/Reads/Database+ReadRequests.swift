import DynamoAPI
import DynamoExpressions

/// A page of a Query or Scan, with what the response needs to know about the request.
package struct ReadResult: Sendable {
    package var page: ReadPage
    /// `Select=COUNT`: the response carries counts without `Items`.
    package var countOnly: Bool
}

extension Database {
    /// Runs a Scan request: DynamoDB's request rules (expressions and their legacy forms,
    /// `Select`, parallel-scan segments), then one page in partition-hash order.
    package func scan(_ input: ScanInput) throws -> ReadResult {
        let compiled = try ExpressionCompiler.compile(ExpressionInput(input))
        let table = try table(named: input.tableName)
        try compiled.checkKeyAttributes(table.keyAttributes.map(\.name))
        // Scan's `Select` rules moved into the 2026 validator's envelope after Query's
        // (paritysuite registry/splits.json scan-specific-attributes-message: eu-west-2 from
        // 2026-09-26); bare in 2025.
        let countOnly = try Self.requestValidation { () throws(DynamoError) in
            try ReadRules.checkSelect(
                input.select, attributesToGet: input.attributesToGet,
                projection: input.projectionExpression, index: input.indexName)
        }
        let segment = try ReadRules.checkSegments(segment: input.segment, total: input.totalSegments)
        let (fetch, options) = try ReadRules.plan(
            compiled, select: input.select, attributesToGet: input.attributesToGet, index: input.indexName,
            table: table, limit: input.limit, exclusiveStartKey: input.exclusiveStartKey,
            consistentRead: input.consistentRead ?? false, countOnly: countOnly)
        let page = try scan(
            table: input.tableName, index: input.indexName, segment: segment,
            fetchTableItems: fetch, options: options)
        return ReadResult(page: page, countOnly: countOnly)
    }

    /// Runs a Query request: DynamoDB's request rules (key conditions matched to the key schema
    /// of the table or index, filters, `Select`), then one page in sort-key order.
    package func query(_ input: QueryInput) throws -> ReadResult {
        if input.keyConditions == nil && input.keyConditionExpression == nil {
            throw EngineMessages.eitherKeyConditionsKeyConditionExpressionParameterSpecified
        }
        let compiled = try ExpressionCompiler.compile(ExpressionInput(input))
        let table = try table(named: input.tableName)
        try compiled.checkKeyAttributes(table.keyAttributes.map(\.name))
        // Query's `Select` rules answer in the 2026 validator's envelope (bare in 2025).
        let countOnly = try Self.requestValidation { () throws(DynamoError) in
            try ReadRules.checkSelect(
                input.select, attributesToGet: input.attributesToGet,
                projection: input.projectionExpression, index: input.indexName)
        }
        let index = try input.indexName.map { name throws(DynamoError) in
            try table.readableIndex(name, consistentRead: input.consistentRead ?? false)
        }
        let keySchema = index.map { ($0.partitionKey, $0.sortKey) } ?? (table.partitionKey, table.sortKey)
        guard let written = compiled.keyCondition else {
            throw EngineMessages.queryConditionMissedKeyElement(keySchema.0.name)
        }
        let keyCondition: KeyConditionSpec
        if let index, index.isMultiAttribute {
            // Multi-attribute keys: the engine matches every condition to the key schema.
            keyCondition = KeyConditionSpec(terms: written.terms.map { KeyTerm(name: $0.attribute, comparison: $0.comparison) })
            try compiled.checkQueryFilter(keys: index.keyAttributes.map(\.name))
        } else {
            keyCondition = try KeyConditionBinding.spec(
                written.terms, partitionKey: keySchema.0, sortKey: keySchema.1,
                fromExpression: input.keyConditionExpression != nil)
            try compiled.checkQueryFilter(keys: [keySchema.0.name, keySchema.1?.name].compactMap { $0 })
        }
        let (fetch, options) = try ReadRules.plan(
            compiled, select: input.select, attributesToGet: input.attributesToGet, index: input.indexName,
            table: table, limit: input.limit, exclusiveStartKey: input.exclusiveStartKey,
            consistentRead: input.consistentRead ?? false, countOnly: countOnly)
        let page = try query(
            table: input.tableName, index: input.indexName, keyCondition: keyCondition,
            forward: input.scanIndexForward ?? true, fetchTableItems: fetch, options: options)
        return ReadResult(page: page, countOnly: countOnly)
    }
}

/// DynamoDB's request-level rules of Query and Scan.
enum ReadRules {
    /// Whether the read fetches table items (see ``fetchesTableItems``) and its page options.
    static func plan(
        _ compiled: CompiledExpressions, select: Select?, attributesToGet: [String]?, index: String?,
        table: TableDefinition, limit: Int?, exclusiveStartKey: Item?, consistentRead: Bool,
        countOnly: Bool
    ) throws -> (fetch: Bool, options: ReadOptions) {
        let fetch = try fetchesTableItems(
            select, attributes: attributesToGet ?? compiled.projection?.paths.map(\.attribute),
            index: index, table: table)
        let options = ReadOptions(
            limit: limit, exclusiveStartKey: exclusiveStartKey, consistentRead: consistentRead,
            countOnly: countOnly, filter: filter(compiled.filter), projection: projection(compiled.projection))
        return (fetch, options)
    }

    static func projection(_ plan: ProjectionPlan?) -> (@Sendable (Item) -> Item)? {
        guard let plan else { return nil }
        return { @Sendable (item: Item) -> Item in plan.apply(to: item) }
    }

    static func filter(_ predicate: DynamoExpressions.Predicate?) -> (@Sendable (Item) -> Bool)? {
        guard let predicate else { return nil }
        return { @Sendable (item: Item) -> Bool in predicate.evaluate(item) }
    }

    /// DynamoDB's rules between `Select` and the projection parameters; `true` for COUNT.
    static func checkSelect(
        _ select: Select?, attributesToGet: [String]?, projection: String?,
        index: String?
    ) throws(DynamoError) -> Bool {
        if let attributesToGet, Set(attributesToGet).count != attributesToGet.count {
            let duplicate = attributesToGet.first { name in attributesToGet.filter { $0 == name }.count > 1 }!
            throw EngineMessages.duplicateValueAttributeName(duplicate: duplicate)
        }
        guard let select else { return false }
        let choosing = select == .count ? "only the Count" : select.rawValue
        if select != .specificAttributes {
            if projection != nil {
                throw EngineMessages.cannotSpecifyProjectionExpressionWhenChoosing(choosing: choosing)
            }
            if attributesToGet != nil {
                throw EngineMessages.cannotSpecifyAttributesToGetWhenChoosing(choosing: choosing)
            }
        } else if projection == nil && attributesToGet == nil {
            throw EngineMessages.specifyAttributesToGetProjectionExpressionWhenChoosing
        }
        if select == .allProjectedAttributes && index == nil {
            throw EngineMessages.allProjectedAttributesUsedOnly
        }
        return select == .count
    }

    /// DynamoDB's rules for parallel scans.
    static func checkSegments(segment: Int?, total: Int?) throws(DynamoError) -> (index: Int, total: Int)? {
        switch (segment, total) {
        case (nil, nil):
            return nil
        case (.some, nil):
            throw EngineMessages.totalSegmentsMissing
        case (nil, .some):
            throw EngineMessages.segmentMissing
        case (let segment?, let total?):
            guard segment < total else {
                throw EngineMessages.segmentOutOfRange(segment: segment, total: total)
            }
            return (segment, total)
        }
    }

    /// Whether an index read must return the table's full items: `Select=ALL_ATTRIBUTES`, or
    /// named attributes the index does not project. A local index fetches them from the table;
    /// a global index cannot.
    ///
    /// `attributes` are the top-level names the request asks for (`AttributesToGet`, or the
    /// first element of each `ProjectionExpression` path): on a local index, any that the index
    /// does not project are read from the table, as DynamoDB does.
    static func fetchesTableItems(
        _ select: Select?, attributes: [String]?, index indexName: String?,
        table: TableDefinition
    ) throws -> Bool {
        guard let indexName else { return false }
        guard let index = table.index(named: indexName), index.projectionType != .all else { return false }
        let projected = Set(
            table.keyAttributes.map(\.name) + index.keyAttributes.map(\.name)
                + (index.nonKeyAttributes ?? []))
        let wantsMore =
            select == .allAttributes
            || (attributes.map { !Set($0).isSubset(of: projected) } ?? false)
        guard wantsMore else { return false }
        if index.isGlobal {
            if select == .allAttributes {
                throw EngineMessages.selectTypeAllAttributesNot(indexName: index.name)
            }
            return false
        }
        return true
    }

}

/// A key condition as written (KeyConditionExpression or `KeyConditions`), matched to the key
/// schema of the table or index being queried.
enum KeyConditionBinding {
    ///
    /// A KeyConditionExpression with more conditions than the schema has key attributes is refused
    /// with DynamoDB's count message before any condition is matched to a key (`fromExpression`);
    /// legacy `KeyConditions` on a single-attribute key schema are limited to one or two entries
    /// (a multi-attribute index takes one per key attribute, and is not bound here).
    static func spec(
        _ terms: [(attribute: String, comparison: KeyComparison)], partitionKey: KeyAttribute,
        sortKey: KeyAttribute?, fromExpression: Bool = false
    ) throws -> KeyConditionSpec {
        let keyCount = sortKey == nil ? 1 : 2
        if !fromExpression && terms.count > 2 { throw ExpressionMessages.keyConditionsTooMany }
        if fromExpression && terms.count > keyCount {
            throw EngineMessages.numberQueryConditionsExceedsNumber(termsCount: terms.count, keyCount: keyCount)
        }
        guard let partition = terms.first(where: { $0.attribute == partitionKey.name }) else {
            throw EngineMessages.queryConditionMissedKeyElement(partitionKey.name)
        }
        guard case .equal(let value) = partition.comparison else {
            throw EngineMessages.queryKeyConditionNotSupported
        }
        var spec = KeyConditionSpec(partitionName: partitionKey.name, partitionValue: value)
        let others = terms.filter { $0.attribute != partitionKey.name }
        guard let other = others.first else { return spec }
        guard let sortKey, other.attribute == sortKey.name, others.count == 1 else {
            throw EngineMessages.queryConditionMissedKeyElement(sortKey?.name ?? other.attribute)
        }
        spec.sortName = sortKey.name
        spec.sortCondition = other.comparison
        return spec
    }
}
