import DynamoAPI
import DynamoEngine

/// Query and Scan: decode, run on the engine (which owns every rule), encode the output shape
/// with the stored items' bytes.
enum ReadOperations {
    static let scan: EngineDispatcher.Operation = { body, context in
        let input = try ScanInput.decodeRequest(body)
        let result = try context.database.scan(input)
        let page = result.page
        CapacityRecorder.report(page.capacity, table: input.tableName)
        let output = RawScanOutput(
            items: result.countOnly ? nil : page.items.map(RawItem.init), count: page.count,
            scannedCount: page.scannedCount, lastEvaluatedKey: page.lastEvaluatedKey,
            consumedCapacity: page.capacity.shape(table: input.tableName, mode: input.returnConsumedCapacity))
        return encoded(output, page: page)
    }

    static let query: EngineDispatcher.Operation = { body, context in
        let input = try QueryInput.decodeRequest(body)
        let result = try context.database.query(input)
        let page = result.page
        CapacityRecorder.report(page.capacity, table: input.tableName)
        let output = RawQueryOutput(
            items: result.countOnly ? nil : page.items.map(RawItem.init), count: page.count,
            scannedCount: page.scannedCount, lastEvaluatedKey: page.lastEvaluatedKey,
            consumedCapacity: page.capacity.shape(table: input.tableName, mode: input.returnConsumedCapacity))
        return encoded(output, page: page)
    }

    /// The output's bytes, in one buffer sized for the page's items.
    private static func encoded(_ output: some RawEncodable, page: ReadPage) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: page.items.reduce(128) { $0 + $1.count + 1 })
        output.encodeRaw(to: &writer)
        return writer.bytes
    }
}
