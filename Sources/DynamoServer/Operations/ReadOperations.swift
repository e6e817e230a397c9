import DynamoAPI
import DynamoEngine

/// Query and Scan: run on the engine (which owns every rule), the answer written with the
/// stored items' bytes. A Query's page is bounded (1 MB), so it runs on the event loop.
extension OperationRows {
    static let scan = OperationRow(
        .pool, touches: { (input: ScanInput) in OperationTouches(tables: [input.tableName], index: input.indexName) },
        admission: .whole(.reads),
        run: { input, context in
            let result = try context.database.scan(input)
            let page = result.page
            CapacityRecorder.report(page.capacity, table: input.tableName)
            return RawScanOutput(
                items: result.countOnly ? nil : page.items.map(RawItem.init), count: page.count,
                scannedCount: page.scannedCount, lastEvaluatedKey: page.lastEvaluatedKey,
                consumedCapacity: page.capacity.shape(table: input.tableName, mode: input.returnConsumedCapacity))
        }, encode: { encoded($0, items: $0.items) })

    static let query = OperationRow(
        .eventLoop,
        touches: { (input: QueryInput) in
            OperationTouches(
                tables: [input.tableName], index: input.indexName,
                queryPartition: { database in database.queryPartition(input) })
        },
        admission: .whole(.reads),
        run: { input, context in
            let result = try context.database.query(input)
            let page = result.page
            CapacityRecorder.report(page.capacity, table: input.tableName)
            return RawQueryOutput(
                items: result.countOnly ? nil : page.items.map(RawItem.init), count: page.count,
                scannedCount: page.scannedCount, lastEvaluatedKey: page.lastEvaluatedKey,
                consumedCapacity: page.capacity.shape(table: input.tableName, mode: input.returnConsumedCapacity))
        }, encode: { encoded($0, items: $0.items) })

    /// The output's bytes, in one buffer sized for the page's items.
    private static func encoded(_ output: some RawEncodable, items: [RawItem]?) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: (items ?? []).reduce(128) { $0 + $1.bytes.count + 1 })
        output.encodeRaw(to: &writer)
        return writer.bytes
    }
}
