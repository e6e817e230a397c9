import DynamoAPI
import DynamoEngine
import NIOPosix

/// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: generated input shape →
/// engine → generated output shape.
enum PartiQLOperations {
    /// On an event loop (``EngineDispatcher/dispatchImmediately(_:body:context:)``) only a SELECT
    /// of one item by its key runs, as bounded as a GetItem; any other statement throws
    /// `PartiQLReadsMoreThanOneItem` before it touches an item and is run again on the thread pool.
    /// A SELECT's items go into the answer as the JSON the read produced (`RawExecuteStatementOutput`),
    /// as GetItem's and Query's do.
    static let executeStatement: EngineDispatcher.Operation = { body, context in
        let input = try ExecuteStatementInput.decodeRequest(body)
        let result = try context.database.executeStatementResult(
            input, now: context.now, oneItemOnly: MultiThreadedEventLoopGroup.currentEventLoop != nil)
        guard let items = result.itemsJSON else { return result.output.jsonBytes }
        let output = RawExecuteStatementOutput(
            items: items.map(RawItem.init), nextToken: result.output.nextToken,
            consumedCapacity: result.output.consumedCapacity, lastEvaluatedKey: result.output.lastEvaluatedKey)
        var writer = JSONWriter(reservingCapacity: items.reduce(64) { $0 + $1.count + 1 })
        output.encode(to: &writer)
        return writer.bytes
    }

    static let batchExecuteStatement = EngineDispatcher.shaped { (input: BatchExecuteStatementInput, context) in
        try context.database.batchExecuteStatement(input)
    }

    static let executeTransaction = EngineDispatcher.shaped { (input: ExecuteTransactionInput, context) in
        try context.database.executeTransaction(input, now: context.now)
    }
}
