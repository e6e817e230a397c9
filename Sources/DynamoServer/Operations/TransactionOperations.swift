import DynamoAPI
import DynamoEngine

/// TransactWriteItems and TransactGetItems: decode, run on the engine, encode the output shape.
enum TransactionOperations {
    static let transactWriteItems = EngineDispatcher.shaped { (input: TransactWriteItemsInput, context) in
        let result = try context.database.transactWriteItems(input, now: context.now)
        CapacityRecorder.report(result.capacity)
        return TransactWriteItemsOutput(
            consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity),
            itemCollectionMetrics: ItemCollectionMetric.shapes(
                result.itemCollections,
                mode: input.returnItemCollectionMetrics))
    }

    static let transactGetItems: EngineDispatcher.Operation = { body, context in
        let input = try TransactGetItemsInput.decodeRequest(body)
        let result = try context.database.transactGetItems(input)
        CapacityRecorder.report(result.capacity)
        return RawTransactGetItemsOutput(
            consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity),
            responses: result.items.map { RawItemResponse(item: $0.map(RawItem.init)) }
        ).jsonBytes
    }
}
