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
        if let mode = input.returnConsumedCapacity?.rawValue, mode == "TOTAL" || mode == "INDEXES" {
            writer.writeKey("ConsumedCapacity", first: true)
            writeCapacities(result.capacityUnits, mode: mode, to: &writer)
            first = false
        }
        if input.returnItemCollectionMetrics?.rawValue == "SIZE" {
            writer.writeKey("ItemCollectionMetrics", first: first)
            writer.writeRaw(Array("{}".utf8))
        }
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
        if let mode = input.returnConsumedCapacity?.rawValue, mode == "TOTAL" || mode == "INDEXES" {
            writer.writeKey("ConsumedCapacity", first: false)
            writeCapacities(result.capacityUnits, mode: mode, to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// `[{"TableName": …, "CapacityUnits": …}, …]`, tables in name order.
    static func writeCapacities(_ units: [String: Double], mode: String, to writer: inout JSONWriter) {
        TableDescriptionWriter.writeArray(units.sorted(by: { $0.key < $1.key }), to: &writer) { entry, writer in
            writer.writeRaw(UInt8(ascii: "{"))
            writer.writeKey("TableName", first: true)
            writer.write(string: entry.key)
            writer.writeKey("CapacityUnits", first: false)
            writer.write(numberText: ItemOperations.capacityText(entry.value))
            if mode == "INDEXES" {
                writer.writeKey("Table", first: false)
                writer.writeRaw(UInt8(ascii: "{"))
                writer.writeKey("CapacityUnits", first: true)
                writer.write(numberText: ItemOperations.capacityText(entry.value))
                writer.writeRaw(UInt8(ascii: "}"))
            }
            writer.writeRaw(UInt8(ascii: "}"))
        }
    }
}
