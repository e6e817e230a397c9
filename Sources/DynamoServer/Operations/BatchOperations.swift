import DynamoAPI
import DynamoEngine

/// BatchGetItem and BatchWriteItem: decode, run on the engine, encode the output shape.
enum BatchOperations {
    static let batchGetItem: EngineDispatcher.Operation = { body, context in
        let input = try BatchGetItemInput.decodeRequest(body)
        let result = try context.database.batchGetItem(input)
        CapacityRecorder.report(result.capacity)
        let output = RawBatchGetItemOutput(
            responses: result.responses.mapValues { $0.map(RawItem.init) }, unprocessedKeys: result.unprocessed,
            consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity))
        var writer = JSONWriter(reservingCapacity: 1024)
        output.encode(to: &writer)
        return writer.bytes
    }

    static let batchWriteItem = EngineDispatcher.shaped { (input: BatchWriteItemInput, context) in
        let result = try context.database.batchWriteItem(input)
        CapacityRecorder.report(result.capacity)
        return BatchWriteItemOutput(
            unprocessedItems: [:],
            itemCollectionMetrics: ItemCollectionMetric.shapes(
                result.itemCollections,
                mode: input.returnItemCollectionMetrics),
            consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity))
    }
}
