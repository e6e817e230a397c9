import DynamoAPI
import DynamoEngine

/// TransactWriteItems (an item write, at most 100 actions) and TransactGetItems (bounded, on
/// the event loop).
extension OperationRows {
    static let transactWriteItems = OperationRow(
        .itemWrite,
        touches: { (input: TransactWriteItemsInput) in
            OperationTouches(
                tables: input.tableNames,
                items: input.transactItems.compactMap { action in action.tableName.map { ($0, action.namedItem) } })
        },
        admission: .whole(.writes),
        run: { input, context in
            let result = try context.database.transactWriteItems(input, now: context.now)
            CapacityRecorder.report(result.capacity)
            return TransactWriteItemsOutput(
                consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity),
                itemCollectionMetrics: ItemCollectionMetric.shapes(result.itemCollections, mode: input.returnItemCollectionMetrics))
        })

    static let transactGetItems = OperationRow(
        .eventLoop,
        touches: { (input: TransactGetItemsInput) in
            OperationTouches(
                tables: input.tableNames,
                items: input.transactItems.map { ($0.get.tableName, $0.get.key) })
        },
        admission: .whole(.reads),
        run: { input, context in
            let result = try context.database.transactGetItems(input)
            CapacityRecorder.report(result.capacity)
            return RawTransactGetItemsOutput(
                consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity),
                responses: result.items.map { RawItemResponse(item: $0.map(RawItem.init)) })
        }, encode: { $0.jsonBytes })
}

extension TransactWriteItemsInput: TableNaming {
    /// Each action's table, in order.
    var tableNames: [String] { transactItems.compactMap(\.tableName) }
}

extension TransactGetItemsInput: TableNaming {
    /// Each action's table, in order.
    var tableNames: [String] { transactItems.map(\.get.tableName) }
}

extension TransactWriteItem {
    /// The table of the action's one member (an action of no kind names none).
    fileprivate var tableName: String? {
        put?.tableName ?? update?.tableName ?? delete?.tableName ?? conditionCheck?.tableName
    }

    /// The item the action names: its key, or a Put's whole item.
    fileprivate var namedItem: [String: AttributeValue] {
        put?.item ?? update?.key ?? delete?.key ?? conditionCheck?.key ?? [:]
    }
}
