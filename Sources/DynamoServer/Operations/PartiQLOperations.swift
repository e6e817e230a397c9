import DynamoAPI
import DynamoEngine
import NIOPosix

/// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: generated input shape →
/// engine → generated output shape.
enum PartiQLOperations {
    /// On an event loop (``EngineDispatcher/dispatchImmediately(_:body:context:)``) only a SELECT
    /// of one item by its key runs, as bounded as a GetItem; any other statement throws
    /// `PartiQLReadsMoreThanOneItem` before it touches an item and is run again on the thread pool.
    /// A SELECT's items go into the answer as the JSON the read produced, as GetItem's and
    /// Query's do; the rest of the output is the generated shape's encoding.
    static let executeStatement: EngineDispatcher.Operation = { body, context in
        let input = try ExecuteStatementInput.decodeRequest(body)
        let result = try context.database.executeStatementResult(
            input, now: context.now, oneItemOnly: MultiThreadedEventLoopGroup.currentEventLoop != nil)
        let rest = result.output.jsonBytes
        guard let items = result.itemsJSON else { return rest }
        var writer = JSONWriter(reservingCapacity: items.reduce(rest.count + 16) { $0 + $1.count + 1 })
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("Items", first: true)
        writer.writeRaw(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { writer.writeRaw(UInt8(ascii: ",")) }
            writer.writeRaw(item)
        }
        writer.writeRaw(UInt8(ascii: "]"))
        // The other members, as the generated encoder wrote them: `{…}` without its opening brace.
        if rest.count > 2 { writer.writeRaw(UInt8(ascii: ",")) }
        writer.writeRaw(rest.dropFirst())
        return writer.bytes
    }

    static let batchExecuteStatement = EngineDispatcher.shaped { (input: BatchExecuteStatementInput, context) in
        try context.database.batchExecuteStatement(input)
    }

    static let executeTransaction = EngineDispatcher.shaped { (input: ExecuteTransactionInput, context) in
        try context.database.executeTransaction(input, now: context.now)
    }
}
