import DynamoAPI
import DynamoExpressions

/// What BatchGetItem found, per table.
package struct BatchGetResult: Sendable {
    /// Each table's items (wire JSON), under the name the request used.
    package var responses: [String: [[UInt8]]]
    /// Keys not read because the response reached its size limit, re-submittable as they are.
    package var unprocessed: [String: KeysAndAttributes]
    /// Read capacity consumed per table.
    package var capacity: [String: ConsumedUnits]
}

extension Database {
    /// The most keys one BatchGetItem may ask for.
    static let maximumBatchGets = 100
    /// DynamoDB stops a BatchGetItem response at 16 MB and returns the rest as unprocessed.
    static let maximumBatchGetResponseBytes = 16 * 1024 * 1024

    /// Reads up to 100 items by key over any tables, in one consistent snapshot.
    package func batchGetItem(
        _ input: BatchGetItemInput,
        responseLimit: Int = maximumBatchGetResponseBytes
    ) throws -> BatchGetResult {
        struct PlannedRead {
            var table: TableDefinition
            var keys: [(key: StoredKey, value: Item)]
            var request: KeysAndAttributes
            var projection: ProjectionPlan?
        }
        var planned: [(name: String, read: PlannedRead)] = []
        var total = 0
        // One table's ProjectionExpression beside another's AttributesToGet mixes the two styles
        // across the request, which DynamoDB refuses as it does within one table.
        let blocks = input.requestItems.values
        if blocks.contains(where: { $0.projectionExpression != nil || $0.expressionAttributeNames != nil }),
            blocks.contains(where: { $0.attributesToGet != nil })
        {
            throw EngineMessages.expressionAndNonExpressionParameters
        }
        for (requestedName, request) in input.requestItems.sorted(by: { $0.key < $1.key }) {
            var expressions = ExpressionInput(.getItem)
            expressions.projectionExpression = request.projectionExpression
            expressions.names = request.expressionAttributeNames
            expressions.attributesToGet = request.attributesToGet
            let compiled = try ExpressionCompiler.compile(expressions)
            let table = try table(named: requestedName)
            try compiled.checkKeyAttributes(table.keyAttributes.map(\.name))
            var seen = Set<StoredKey>()
            var keys: [(key: StoredKey, value: Item)] = []
            for value in request.keys {
                let key = try table.storedKey(fromKey: value)
                guard seen.insert(key).inserted else {
                    throw EngineMessages.duplicateKeys
                }
                total += 1
                if total > Self.maximumBatchGets {
                    throw EngineMessages.tooManyItemsRequestedBatchGetItem
                }
                keys.append((key, value))
            }
            planned.append(
                (
                    requestedName,
                    PlannedRead(
                        table: table, keys: keys, request: request,
                        projection: compiled.projection)
                ))
        }
        return try read { connection in
            try connection.readTransaction {
                var result = BatchGetResult(responses: [:], unprocessed: [:], capacity: [:])
                var responseBytes = 0
                for (name, plannedRead) in planned {
                    let store = ItemStore(table: plannedRead.table, connection: connection)
                    let consistent = plannedRead.request.consistentRead ?? false
                    let eventual = !consistent && consistency.isActive
                    var items: [[UInt8]] = []
                    var leftOver: [Item] = []
                    for (key, value) in plannedRead.keys {
                        if responseBytes >= responseLimit {
                            leftOver.append(value)
                            continue
                        }
                        var found = try store.get(key)
                        if eventual { found = eventuallyConsistent(found, table: plannedRead.table, key: key) }
                        result.capacity[name, default: ConsumedUnits()].table +=
                            Capacity.readUnits(size: found?.size ?? 0, consistent: consistent)
                        guard let found else { continue }
                        var json = found.json
                        if let projection = plannedRead.projection {
                            let item = try AttributeValue.decodeItem(bytes: json)
                            json = ItemJSON.encode(projection.apply(to: item))
                        }
                        responseBytes += json.count
                        items.append(json)
                    }
                    result.responses[name] = items
                    if !leftOver.isEmpty {
                        var rest = plannedRead.request
                        rest.keys = leftOver
                        result.unprocessed[name] = rest
                    }
                }
                return result
            }
        }
    }
}
