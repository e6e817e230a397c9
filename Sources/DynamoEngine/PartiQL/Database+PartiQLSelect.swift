import DynamoAPI
import DynamoExpressions
import DynamoPartiQL

extension Database {
    /// A SELECT: the partitions its WHERE fixes, each read as a Query page, or a Scan page.
    func executeSelect(
        _ statement: PartiQLStatement, input: ExecuteStatementInput,
        parameters: [AttributeValue], now: Double
    ) throws -> StatementResult {
        let definition = try table(named: statement.table)
        let consistent = input.consistentRead ?? false
        var schema: PartiQLSchema? = definition.partiQLSchema
        if let indexName = statement.index {
            // A vector index is not readable through PartiQL (measured: Scan's words).
            if definition.vectorIndex(named: indexName) != nil { throw EngineMessages.operationNotOnVectorIndex("Scan") }
            guard let index = definition.index(named: indexName) else {
                // Unlike Query and Scan, PartiQL's message does not name the index.
                throw EngineMessages.tableHasNoSuchIndex
            }
            // The service reads no index whose key has several HASH or RANGE attributes, ahead
            // of every check of the statement against the index (eu-west-2, us-east-1, 2026-10).
            if index.isMultiAttribute { throw PartiQLMessages.multiAttributeIndex }
            if let refusal = statement.projectionError { throw refusal }
            if index.isGlobal, consistent { throw PartiQLMessages.consistentReadOnGSI }
            schema = index.partiQLSchema
        }
        let plan = try PartiQLTranslator.select(statement, schema: schema, parameters: parameters)
        if let indexName = statement.index, let index = definition.index(named: indexName) {
            try definition.checkProjects(index, statement, keyed: plan.partitions != nil)
        }
        let filter = plan.filter.map { predicate in { @Sendable (item: Item) in predicate.evaluate(item) } }
        let projection = plan.projection.map { paths in { @Sendable (item: Item) in PartiQLProjection.apply(paths, to: item) } }
        var options = ReadOptions(limit: input.limit, consistentRead: consistent, filter: filter, projection: projection)
        let token = try input.nextToken.map {
            try PartiQLNextToken(decoding: $0, statement: input.statement, partitions: plan.partitions?.count ?? 1, now: now)
        }
        if input.nextToken == nil, let key = plan.fullKey(of: definition) {
            return try selectItem(key: key, table: plan.table, filter: plan.filter, projection: plan.projection, input: input)
        }
        var items: [[UInt8]] = []
        var capacity = ConsumedUnits()
        var next: PartiQLNextToken?
        if let partitions = plan.partitions, let partitionKey = plan.partitionKey {
            var position = token?.partition ?? 0
            var start = token?.startKey
            var remaining = input.limit
            if partitions.count > 1 {
                remaining = min(remaining ?? PartiQLSelectPlan.decomposedPageSize, PartiQLSelectPlan.decomposedPageSize)
            }
            while position < partitions.count {
                options.limit = remaining
                options.exclusiveStartKey = start
                let condition = KeyConditionSpec(
                    partitionName: partitionKey, partitionValue: partitions[position],
                    sortName: plan.sortCondition == nil ? nil : plan.sortKey,
                    sortCondition: plan.sortCondition)
                let page = try query(
                    table: plan.table, index: plan.index, keyCondition: condition,
                    forward: !plan.descending, options: options)
                items += page.items
                capacity.add(page.capacity)
                if let last = page.lastEvaluatedKey {
                    next = PartiQLNextToken(partition: position, startKey: last)
                    break
                }
                position += 1
                start = nil
                if let limit = remaining {
                    remaining = limit - page.scannedCount
                    if remaining! <= 0 {
                        if position < partitions.count { next = PartiQLNextToken(partition: position, startKey: nil) }
                        break
                    }
                }
            }
        } else if plan.partitions == nil {
            options.exclusiveStartKey = token?.startKey
            let page = try scan(table: plan.table, index: plan.index, segment: nil, options: options)
            items = page.items
            capacity = page.capacity
            next = page.lastEvaluatedKey.map { PartiQLNextToken(partition: 0, startKey: $0) }
        }
        // The read filtered and projected the items already: their JSON goes out as it is.
        // LastEvaluatedKey: the key the page stopped at, as the API reference describes it.
        var output = ExecuteStatementOutput(
            nextToken: next?.encode(statement: input.statement, now: now),
            lastEvaluatedKey: next?.startKey)
        output.consumedCapacity = capacity.shape(table: plan.table, mode: input.returnConsumedCapacity)
        return StatementResult(output: output, itemsJSON: items)
    }

    /// A SELECT that names one item of the table by its whole key: a GetItem, the item kept if
    /// `filter` (the WHERE clause, `nil` when it holds for any item of that key) holds for it.
    func selectItem(
        key: Item, table: String, filter: Predicate?, projection: [PartiQLProjection]?,
        input: ExecuteStatementInput
    ) throws -> StatementResult {
        let result = try getItem(GetItemInput(tableName: table, key: key, consistentRead: input.consistentRead))
        var output = ExecuteStatementOutput()
        output.consumedCapacity = result.capacity.shape(table: table, mode: input.returnConsumedCapacity)
        guard let json = result.json else { return StatementResult(output: output, itemsJSON: []) }
        // `SELECT *` without a filter: the stored JSON is the answer, as GetItem's is.
        if filter == nil, projection == nil { return StatementResult(output: output, itemsJSON: [json]) }
        let item = try AttributeValue.decodeItem(bytes: json)
        guard filter?.evaluate(item) ?? true else { return StatementResult(output: output, itemsJSON: []) }
        output.items = [projection.map { PartiQLProjection.apply($0, to: item) } ?? item]
        return StatementResult(output: output)
    }
}

extension TableDefinition {
    /// Refuses a SELECT on `index` that reads attributes the index does not project, as
    /// DynamoDB does: a global index for the select list's (a local index fetches those from
    /// the table), and any index for the WHERE clause's when the WHERE fixes the index's
    /// partition key (`keyed`, a Query). An unkeyed read is a scan of the index whose filter
    /// sees only what the index holds, so such a filter matches nothing (peers' 2026 measures of
    /// the service, dynoxide and dynamodb-conformance).
    func checkProjects(_ index: IndexDefinition, _ statement: PartiQLStatement, keyed: Bool) throws(DynamoError) {
        guard index.projectionType != .all, let attributes = statement.selectAttributes else { return }
        let projected = Set(keyAttributes.map(\.name) + index.keyAttributes.map(\.name) + (index.nonKeyAttributes ?? []))
        let unfiltered = attributes.filter.filter { !projected.contains($0) }
        if keyed, !unfiltered.isEmpty {
            throw EngineMessages.indexDoesNotProjectFilter(index: index.name, attributes: unfiltered)
        }
        let unselected = (attributes.selected ?? []).filter { !projected.contains($0) }
        if index.isGlobal, !unselected.isEmpty {
            throw EngineMessages.globalIndexDoesNotProject(index: index.name, attributes: unselected)
        }
    }
}

extension PartiQLSelectPlan {
    /// The table key the plan names with `=` on every key attribute, if it reads one item of
    /// the table (not an index).
    func fullKey(of table: TableDefinition) -> Item? {
        guard index == nil, let partitions, partitions.count == 1, let partitionKey else { return nil }
        var key: Item = [partitionKey: partitions[0]]
        if let sortKey = table.sortKey {
            guard case .equal(let value)? = sortCondition, self.sortKey == sortKey.name else { return nil }
            key[sortKey.name] = value
        }
        return key
    }
}
