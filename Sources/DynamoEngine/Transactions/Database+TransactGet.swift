import DynamoAPI
import DynamoExpressions

/// What TransactGetItems read: one entry per Get, `nil` where the item does not exist.
package struct TransactGetResult: Sendable {
    package var items: [[UInt8]?]
    package var capacity: [String: ConsumedUnits]
}

extension Database {
    /// Reads up to 100 items, each from any table, in one snapshot.
    package func transactGetItems(_ input: TransactGetItemsInput) throws -> TransactGetResult {
        if input.transactItems.count > Self.maximumTransactionActions {
            throw EngineMessages.memberHaveLengthLessThan
        }
        var planned: [(table: TableDefinition, name: String, key: StoredKey, projection: ProjectionPlan?)] = []
        // A key that does not fit its table's schema cancels the transaction (a `ValidationError`
        // reason at its position) instead of failing the request, as DynamoDB reports an empty `Key`.
        var keyErrors: [Int: DynamoError] = [:]
        var seen: Set<String> = []
        for (position, entry) in input.transactItems.enumerated() {
            let get = entry.get
            var expressions = ExpressionInput(.getItem)
            expressions.projectionExpression = get.projectionExpression
            expressions.names = get.expressionAttributeNames
            let compiled = try ExpressionCompiler.compile(expressions)
            let table = try table(named: get.tableName)
            if let error = table.keyShapeError(fromKey: get.key) {
                keyErrors[position] = error
                continue
            }
            let key = try table.storedKey(fromKey: get.key)
            guard seen.insert("\(table.storageID)/\(key.partition)/\(key.sort)").inserted else {
                throw EngineMessages.transactionRequestCannotIncludeMultiple
            }
            planned.append((table, get.tableName, key, compiled.projection))
        }
        if !keyErrors.isEmpty {
            throw DynamoError.transactionCanceled(validationErrors: keyErrors, actions: input.transactItems.count)
        }
        return try read { connection in
            try connection.readTransaction {
                var result = TransactGetResult(items: [], capacity: [:])
                for read in planned {
                    let found = try ItemStore(table: read.table, connection: connection).get(read.key)
                    result.capacity[read.name, default: ConsumedUnits()].table +=
                        Capacity.readUnits(size: found?.size ?? 0, consistent: true) * 2
                    result.capacity[read.name]?.reportedAs = .read
                    guard var json = found?.json else {
                        result.items.append(nil)
                        continue
                    }
                    if let projection = read.projection {
                        json = ItemJSON.encode(projection.apply(to: try AttributeValue.decodeItem(bytes: json)))
                    }
                    result.items.append(json)
                }
                return result
            }
        }
    }
}
