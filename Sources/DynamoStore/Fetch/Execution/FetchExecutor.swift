import DynamoAPI
import DynamoClient
import Logging

/// Runs a ``FetchPlan`` against DynamoDB and returns matching items: pages are read until the
/// limit is reached (never a page beyond the one that reaches it) or the read ends; the
/// in-memory part of the predicate and the in-memory sort are applied here.
struct FetchExecutor<Result: ManagedObject> {
    let client: DynamoClient
    let request: FetchRequest<Result>
    let plan: FetchPlan
    let residual: (Item) -> Bool
    let logger: Logger
    /// The table's key attribute names (storage names), for keys taken from items.
    let tableKeys: [String]

    init(client: DynamoClient, request: FetchRequest<Result>, logger: Logger) throws(FetchPredicateError) {
        self.client = client
        self.request = request
        plan = request.explain()
        self.logger = logger
        residual = try plan.residual.matcher()
        tableKeys = FetchPlanner(entity: request.entity).tableKeys
    }

    /// Items read, and where to continue when the limit stopped the read early.
    struct Page {
        var items: [Item]
        var cursor: FetchCursor?
    }

    // MARK: - Items

    /// Reads the matching items: up to `limit` (`nil`: all), from `cursor` on, sorted.
    func items(limit: Int?, pageSize: Int?, after cursor: FetchCursor?, attributes: Set<String>?) async throws -> Page {
        if let cursor { try cursor.check(against: plan) }
        if let limit, limit <= 0 { return Page(items: []) }
        var page: Page
        switch plan.operation {
        case .none:
            return Page(items: [])
        case .getItem:
            var input = GetItemInput(tableName: plan.tableName, key: plan.keys[0])
            input.consistentRead = request.consistentRead ? true : nil
            if let (expression, names) = try projection(for: attributes) {
                input.projectionExpression = expression
                input.expressionAttributeNames = names
            }
            let item = try await client.getItem(input).item
            page = Page(items: [item].compactMap { $0 }.filter(residual))
        case .batchGetItem:
            page = Page(items: try await batchGet(plan.keys, attributes: attributes).filter(residual))
        case .query, .scan:
            if plan.operation == .scan {
                logger.warning(
                    "fetch of \(request.entity.name) scans the whole table \(plan.tableName): no key condition in the predicate",
                    metadata: ["plan": "\(plan)"])
            }
            page = try await readPages(
                limit: plan.sortsInMemory ? nil : limit, pageSize: pageSize,
                start: cursor?.lastKey, attributes: attributes)
        }
        if plan.sortsInMemory {
            StorageSort.sort(&page.items, by: request.sorts)
            if let limit, page.items.count > limit { page.items.removeLast(page.items.count - limit) }
        }
        return page
    }

    /// The attributes to project, with the in-memory filter's and the read position's, as a
    /// ProjectionExpression whose placeholders avoid the plan's.
    private func projection(for attributes: Set<String>?) throws -> (String, [String: String])? {
        guard let attributes else { return nil }
        let all = attributes.union(plan.residual.attributeNames).union(plan.positionAttributes)
            .union(request.sorts.map { $0.attribute }).union(plan.unprojectedFilterAttributes)
        let projection = ProjectionExpression(all.sorted().map { AttributePath.name($0) })
        let taken = Set(plan.expressionAttributeNames.keys).union(plan.expressionAttributeValues.keys)
        let rendered = try Expressions(projection: projection).rendered(avoiding: taken)
        return rendered.projection.map { ($0, rendered.names) }
    }

    private func batchGet(_ keys: [Item], attributes: Set<String>?) async throws -> [Item] {
        guard !keys.isEmpty else { return [] }
        var request = KeysAndAttributes(keys: keys)
        request.consistentRead = self.request.consistentRead ? true : nil
        if let (expression, names) = try projection(for: attributes) {
            request.projectionExpression = expression
            request.expressionAttributeNames = names
        }
        let items = try await client.batchGetAll([plan.tableName: request])[plan.tableName] ?? []
        // BatchGetItem answers in no particular order: put the items back in the keys' order.
        var byKey: [Item: Item] = [:]
        for item in items { byKey[item.filter { tableKeys.contains($0.key) }] = item }
        return keys.compactMap { byKey[$0] }
    }

    private func readPages(limit: Int?, pageSize: Int?, start: Item?, attributes: Set<String>?) async throws -> Page {
        var collected: [Item] = []
        var start = start
        let serverCounts = plan.residual == .constant(true) && plan.serverFilter == nil
        // The index read itself only needs keys when the rest comes from the table.
        let readAttributes = plan.fetchesFromTable ? Set(plan.positionAttributes) : attributes
        repeat {
            let remaining = limit.map { $0 - collected.count }
            // Without any filter every item read is a result: ask for exactly what is missing.
            let pageLimit = serverCounts ? [pageSize, remaining].compactMap { $0 }.min() : pageSize
            let output = try await page(start: start, limit: pageLimit, attributes: readAttributes, select: nil)
            var items = output.items ?? []
            if plan.fetchesFromTable {
                items = try await batchGet(items.map { $0.filter { tableKeys.contains($0.key) } }, attributes: attributes)
            }
            for (offset, item) in items.enumerated() where residual(item) {
                collected.append(item)
                if let limit, collected.count == limit {
                    let more = offset < items.count - 1 || output.lastEvaluatedKey != nil
                    return Page(items: collected, cursor: more ? cursor(after: item) : nil)
                }
            }
            start = output.lastEvaluatedKey
        } while start != nil
        return Page(items: collected)
    }

    /// The cursor continuing after `item`.
    func cursor(after item: Item) -> FetchCursor {
        FetchCursor(
            tableName: plan.tableName, indexName: plan.indexName,
            lastKey: item.filter { plan.positionAttributes.contains($0.key) })
    }

    /// One Query or Scan request.
    private func page(start: Item?, limit: Int?, attributes: Set<String>?, select: Select?) async throws -> QueryOutput {
        var names = plan.expressionAttributeNames
        var projectionExpression: String?
        if select == nil, let (expression, projected) = try projection(for: attributes) {
            projectionExpression = expression
            names.merge(projected) { $1 }
        }
        let values = plan.expressionAttributeValues.isEmpty ? nil : plan.expressionAttributeValues
        let consistent = request.consistentRead ? true : nil
        if plan.operation == .query {
            // An index query returns only projected attributes unless asked for all: a global
            // index is asked only if it projects everything (otherwise the rest comes from the
            // table by BatchGetItem), a local index reads the rest from the table itself.
            let select = select ?? (plan.indexName != nil && projectionExpression == nil ? .allAttributes : nil)
            var input = QueryInput(
                tableName: plan.tableName, indexName: plan.indexName, select: select, limit: limit,
                consistentRead: consistent)
            input.exclusiveStartKey = start
            input.scanIndexForward = plan.scanIndexForward
            input.keyConditionExpression = plan.keyCondition
            input.filterExpression = plan.filter
            input.projectionExpression = projectionExpression
            input.expressionAttributeNames = names.isEmpty ? nil : names
            input.expressionAttributeValues = values
            return try await client.query(input)
        }
        var input = ScanInput(tableName: plan.tableName, limit: limit, select: select, exclusiveStartKey: start)
        input.consistentRead = consistent
        input.filterExpression = plan.filter
        input.projectionExpression = projectionExpression
        input.expressionAttributeNames = names.isEmpty ? nil : names
        input.expressionAttributeValues = values
        let output = try await client.scan(input)
        return QueryOutput(
            items: output.items, count: output.count, scannedCount: output.scannedCount,
            lastEvaluatedKey: output.lastEvaluatedKey)
    }

    // MARK: - Count

    /// How many items match (at most `limit`): `Select=COUNT` summed over every page when the
    /// server can evaluate the whole predicate on what it reads; otherwise the keys (with the
    /// attributes a local index must read from the table for its filter) are read and counted.
    func count(limit: Int?) async throws -> Int {
        if let limit, limit <= 0 { return 0 }
        guard plan.operation == .query || plan.operation == .scan, plan.residual == .constant(true),
            plan.unprojectedFilterAttributes.isEmpty
        else {
            return try await items(
                limit: limit, pageSize: request.pageSize, after: nil,
                attributes: Set(plan.positionAttributes)
            ).items.count
        }
        if plan.operation == .scan {
            logger.warning("count of \(request.entity.name) scans the whole table \(plan.tableName): no key condition in the predicate")
        }
        var total = 0
        var start: Item?
        repeat {
            let remaining = limit.map { $0 - total }
            let pageLimit = plan.serverFilter == nil ? [request.pageSize, remaining].compactMap { $0 }.min() : request.pageSize
            let output = try await page(start: start, limit: pageLimit, attributes: nil, select: .count)
            total += output.count ?? 0
            if let limit, total >= limit { return limit }
            start = output.lastEvaluatedKey
        } while start != nil
        return total
    }
}
