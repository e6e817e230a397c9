import DynamoAPI
import DynamoEngine

/// BatchGetItem and BatchWriteItem: decode, run on the engine, render.
enum BatchOperations {
    static let batchGetItem: EngineDispatcher.Operation = { body, context in
        let input = try BatchGetItemInput.decodeRequest(body)
        let result = try context.database.batchGetItem(input)
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("Responses", first: true)
        writer.writeRaw(UInt8(ascii: "{"))
        for (position, (table, items)) in result.responses.sorted(by: { $0.key < $1.key }).enumerated() {
            writer.writeKey(table, first: position == 0)
            TableDescriptionWriter.writeArray(items, to: &writer) { item, writer in writer.writeRaw(item) }
        }
        writer.writeRaw(UInt8(ascii: "}"))
        writer.writeKey("UnprocessedKeys", first: false)
        writer.writeRaw(UInt8(ascii: "{"))
        for (position, (table, keys)) in result.unprocessed.sorted(by: { $0.key < $1.key }).enumerated() {
            writer.writeKey(table, first: position == 0)
            keys.encode(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
        CapacityWriter.writeList(input.returnConsumedCapacity?.rawValue, result.capacity, first: false, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }

    static let batchWriteItem: EngineDispatcher.Operation = { body, context in
        let input = try BatchWriteItemInput.decodeRequest(body)
        let result = try context.database.batchWriteItem(input)
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("UnprocessedItems", first: true)
        writer.writeRaw(Array("{}".utf8))
        CapacityWriter.writeList(input.returnConsumedCapacity?.rawValue, result.capacity, first: false, to: &writer)
        ItemCollectionWriter.writeMap(input.returnItemCollectionMetrics?.rawValue, result.itemCollections,
                                      first: false, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }
}
