import DynamoAPI
import DynamoEngine

/// TransactWriteItems and TransactGetItems: decode, run on the engine, render.
enum TransactionOperations {
    static let transactWriteItems: EngineDispatcher.Operation = { body, context in
        let input = try TransactWriteItemsInput.decodeRequest(body)
        let result = try context.database.transactWriteItems(input, now: context.now)
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        let capacityMode = input.returnConsumedCapacity?.rawValue
        CapacityWriter.writeList(capacityMode, result.capacity, first: true, to: &writer)
        if CapacityWriter.wanted(capacityMode) { first = false }
        ItemCollectionWriter.writeMap(input.returnItemCollectionMetrics?.rawValue, result.itemCollections,
                                      first: first, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }

    static let transactGetItems: EngineDispatcher.Operation = { body, context in
        let input = try TransactGetItemsInput.decodeRequest(body)
        let result = try context.database.transactGetItems(input)
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("Responses", first: true)
        TableDescriptionWriter.writeArray(result.items, to: &writer) { item, writer in
            writer.writeRaw(UInt8(ascii: "{"))
            if let item {
                writer.writeKey("Item", first: true)
                writer.writeRaw(item)
            }
            writer.writeRaw(UInt8(ascii: "}"))
        }
        CapacityWriter.writeList(input.returnConsumedCapacity?.rawValue, result.capacity, first: false, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }
}
