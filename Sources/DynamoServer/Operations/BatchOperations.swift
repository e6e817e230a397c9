import DynamoAPI
import DynamoEngine

/// BatchGetItem (bounded: 100 keys, on the event loop) and BatchWriteItem (an item write), each
/// admitted item by item under `--throttle`.
extension OperationRows {
    static let batchGetItem = OperationRow(
        .eventLoop,
        touches: { (input: BatchGetItemInput) in
            let tables = input.tableNames
            return OperationTouches(
                tables: tables, items: tables.flatMap { name in input.requestItems[name]!.keys.map { (name, $0) } })
        },
        admission: .itemByItem(BatchAdmission.batchGet),
        run: { input, context in
            let result = try context.database.batchGetItem(input)
            CapacityRecorder.report(result.capacity)
            return RawBatchGetItemOutput(
                responses: result.responses.mapValues { $0.map(RawItem.init) }, unprocessedKeys: result.unprocessed,
                consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity))
        },
        encode: { output in
            var writer = JSONWriter(reservingCapacity: 1024)
            output.encode(to: &writer)
            return writer.bytes
        })

    static let batchWriteItem = OperationRow(
        .itemWrite,
        touches: { (input: BatchWriteItemInput) in
            let tables = input.tableNames
            return OperationTouches(
                tables: tables,
                items: tables.flatMap { name in
                    input.requestItems[name]!.map { (name, $0.putRequest?.item ?? $0.deleteRequest?.key ?? [:]) }
                })
        },
        admission: .itemByItem(BatchAdmission.batchWrite),
        run: { input, context in
            let result = try context.database.batchWriteItem(input)
            CapacityRecorder.report(result.capacity)
            return BatchWriteItemOutput(
                unprocessedItems: [:],
                itemCollectionMetrics: ItemCollectionMetric.shapes(result.itemCollections, mode: input.returnItemCollectionMetrics),
                consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity))
        })
}

extension BatchGetItemInput: TableNaming {
    /// The keys of `RequestItems`, in order.
    var tableNames: [String] { requestItems.keys.sorted() }
}

extension BatchWriteItemInput: TableNaming {
    /// The keys of `RequestItems`, in order.
    var tableNames: [String] { requestItems.keys.sorted() }
}
