import DynamoAPI
import DynamoEngine

/// Query and Scan: decode, run on the engine (which owns every rule), render.
enum ReadOperations {
    static let scan: EngineDispatcher.Operation = { body, context in
        let input = try ScanInput.decodeRequest(body)
        let result = try context.database.scan(input)
        return render(result, capacity: input.returnConsumedCapacity?.rawValue, table: input.tableName)
    }

    static let query: EngineDispatcher.Operation = { body, context in
        let input = try QueryInput.decodeRequest(body)
        let result = try context.database.query(input)
        return render(result, capacity: input.returnConsumedCapacity?.rawValue, table: input.tableName)
    }

    /// `{"Items": […], "Count": n, "ScannedCount": n, "LastEvaluatedKey": {…}, "ConsumedCapacity": {…}}`.
    static func render(_ result: ReadResult, capacity: String?, table: String) -> [UInt8] {
        let page = result.page
        var writer = JSONWriter(reservingCapacity: page.items.reduce(128) { $0 + $1.count + 1 })
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if !result.countOnly {
            writer.writeKey("Items", first: true)
            TableDescriptionWriter.writeArray(page.items, to: &writer) { item, writer in writer.writeRaw(item) }
            first = false
        }
        writer.writeKey("Count", first: first)
        writer.write(page.count)
        writer.writeKey("ScannedCount", first: false)
        writer.write(page.scannedCount)
        if let key = page.lastEvaluatedKey {
            writer.writeKey("LastEvaluatedKey", first: false)
            AttributeValue.encode(item: key, to: &writer)
        }
        CapacityWriter.writeMember(capacity, table: table, units: page.capacity, first: false, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }
}
