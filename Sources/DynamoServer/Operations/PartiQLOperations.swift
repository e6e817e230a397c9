import DynamoAPI
import DynamoEngine

/// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction.
extension OperationRows {
    /// A SELECT of one item by its key runs on the event loop, as bounded as a GetItem (decided
    /// from the statement and the table's key schema before anything runs); every other
    /// statement on the pool. A SELECT's items go into the answer as the JSON the read produced
    /// (`RawExecuteStatementOutput`), as GetItem's and Query's do.
    static let executeStatement = OperationRow(
        .decided { (input: ExecuteStatementInput, database) in database.readsOneItemByKey(input) ? .eventLoop : .pool },
        run: { input, context in try context.database.executeStatementResult(input, now: context.now) },
        encode: { result in
            guard let items = result.itemsJSON else { return result.output.jsonBytes }
            let output = RawExecuteStatementOutput(
                items: items.map(RawItem.init), nextToken: result.output.nextToken,
                consumedCapacity: result.output.consumedCapacity, lastEvaluatedKey: result.output.lastEvaluatedKey)
            var writer = JSONWriter(reservingCapacity: items.reduce(64) { $0 + $1.count + 1 })
            output.encode(to: &writer)
            return writer.bytes
        })

    static let batchExecuteStatement = OperationRow { (input: BatchExecuteStatementInput, context) in
        try context.database.batchExecuteStatement(input)
    }

    static let executeTransaction = OperationRow { (input: ExecuteTransactionInput, context) in
        try context.database.executeTransaction(input, now: context.now)
    }
}
