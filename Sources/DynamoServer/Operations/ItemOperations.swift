import DynamoAPI
import DynamoEngine

/// The single-item data-plane operations: decode, run on the engine, render.
enum ItemOperations {
    static let getItem: EngineDispatcher.Operation = { body, context in
        let input = try GetItemInput.decodeRequest(body)
        let result = try context.database.getItem(input)
        var writer = JSONWriter(reservingCapacity: (result.json?.count ?? 0) + 64)
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if let json = result.json {
            writer.writeKey("Item", first: true)
            writer.writeRaw(json)
            first = false
        }
        CapacityWriter.writeMember(input.returnConsumedCapacity?.rawValue, table: input.tableName,
                                   units: result.capacity, first: first, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }

    static let putItem: EngineDispatcher.Operation = { body, context in
        let input = try PutItemInput.decodeRequest(body)
        let result = try context.database.putItem(input)
        return render(result, attributes: result.oldItem, capacity: input.returnConsumedCapacity?.rawValue,
                      table: input.tableName)
    }

    static let deleteItem: EngineDispatcher.Operation = { body, context in
        let input = try DeleteItemInput.decodeRequest(body)
        let result = try context.database.deleteItem(input)
        return render(result, attributes: result.oldItem, capacity: input.returnConsumedCapacity?.rawValue,
                      table: input.tableName)
    }

    static let updateItem: EngineDispatcher.Operation = { body, context in
        let input = try UpdateItemInput.decodeRequest(body)
        let result = try context.database.updateItem(input)
        return render(result, attributes: result.returnedAttributes, capacity: input.returnConsumedCapacity?.rawValue,
                      table: input.tableName)
    }

    /// `{"Attributes": …, "ConsumedCapacity": …}`; DynamoDB omits `Attributes` when empty.
    private static func render(_ result: ItemWriteResult, attributes: Item?, capacity: String?,
                               table: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if let attributes, !attributes.isEmpty {
            writer.writeKey("Attributes", first: true)
            AttributeValue.encode(item: attributes, to: &writer)
            first = false
        }
        CapacityWriter.writeMember(capacity, table: table, units: result.capacity, first: first, to: &writer)
        if CapacityWriter.wanted(capacity) { first = false }
        ItemCollectionWriter.writeMember(result.itemCollection, first: first, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }
}
