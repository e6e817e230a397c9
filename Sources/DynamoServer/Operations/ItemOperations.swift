import DynamoAPI
import DynamoEngine

/// The single-item data-plane operations: decode, run on the engine, encode the output shape.
enum ItemOperations {
    static let getItem: EngineDispatcher.Operation = { body, context in
        let input = try GetItemInput.decodeRequest(body)
        let result = try context.database.getItem(input)
        CapacityRecorder.report(result.capacity, table: input.tableName)
        let output = RawGetItemOutput(
            item: result.json.map(RawItem.init),
            consumedCapacity: result.capacity.shape(table: input.tableName, mode: input.returnConsumedCapacity))
        var writer = JSONWriter(reservingCapacity: (result.json?.count ?? 0) + 64)
        output.encode(to: &writer)
        return writer.bytes
    }

    static let putItem: EngineDispatcher.Operation = { body, context in
        let input = try PutItemInput.decodeRequest(body)
        let result = try context.database.putItem(input)
        return written(
            result, attributes: result.oldItem, table: input.tableName,
            capacity: input.returnConsumedCapacity
        ) {
            PutItemOutput(
                attributes: $0, consumedCapacity: $1,
                itemCollectionMetrics: $2)
        }
    }

    static let deleteItem: EngineDispatcher.Operation = { body, context in
        let input = try DeleteItemInput.decodeRequest(body)
        let result = try context.database.deleteItem(input)
        return written(
            result, attributes: result.oldItem, table: input.tableName,
            capacity: input.returnConsumedCapacity
        ) {
            DeleteItemOutput(
                attributes: $0, consumedCapacity: $1,
                itemCollectionMetrics: $2)
        }
    }

    static let updateItem: EngineDispatcher.Operation = { body, context in
        let input = try UpdateItemInput.decodeRequest(body)
        let result = try context.database.updateItem(input)
        return written(
            result, attributes: result.returnedAttributes, table: input.tableName,
            capacity: input.returnConsumedCapacity
        ) {
            UpdateItemOutput(
                attributes: $0, consumedCapacity: $1,
                itemCollectionMetrics: $2)
        }
    }

    /// The output of a single-item write; DynamoDB omits `Attributes` when empty.
    private static func written<Output: DynamoShape>(
        _ result: ItemWriteResult, attributes: Item?, table: String, capacity: ReturnConsumedCapacity?,
        _ output: (Item?, ConsumedCapacity?, ItemCollectionMetrics?) -> Output
    ) -> [UInt8] {
        CapacityRecorder.report(result.capacity, table: table)
        return output(
            attributes?.isEmpty == false ? attributes : nil,
            result.capacity.shape(table: table, mode: capacity),
            result.itemCollection?.shape
        ).jsonBytes
    }
}
