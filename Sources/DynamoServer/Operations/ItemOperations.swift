import DynamoAPI
import DynamoEngine

/// The single-item data-plane operations: GetItem on the event loop, the writes where item
/// writes go; each answer written from the stored item's bytes or the output shape.
extension OperationRows {
    static let getItem = OperationRow(
        .eventLoop, touches: { (input: GetItemInput) in .item(input.key, table: input.tableName) }, admission: .whole(.reads),
        run: { input, context in
            let result = try context.database.getItem(input)
            CapacityRecorder.report(result.capacity, table: input.tableName)
            return RawGetItemOutput(
                item: result.json.map(RawItem.init),
                consumedCapacity: result.capacity.shape(table: input.tableName, mode: input.returnConsumedCapacity))
        },
        encode: { output in
            var writer = JSONWriter(reservingCapacity: (output.item?.bytes.count ?? 0) + 64)
            output.encode(to: &writer)
            return writer.bytes
        })

    static let putItem = OperationRow(
        .itemWrite, touches: { (input: PutItemInput) in .item(input.item, table: input.tableName) }, admission: .whole(.writes),
        run: { input, context in
            let result = try context.database.putItem(input)
            return written(result, attributes: result.oldItem, table: input.tableName, capacity: input.returnConsumedCapacity) {
                PutItemOutput(attributes: $0, consumedCapacity: $1, itemCollectionMetrics: $2)
            }
        })

    static let deleteItem = OperationRow(
        .itemWrite, touches: { (input: DeleteItemInput) in .item(input.key, table: input.tableName) }, admission: .whole(.writes),
        run: { input, context in
            let result = try context.database.deleteItem(input)
            return written(result, attributes: result.oldItem, table: input.tableName, capacity: input.returnConsumedCapacity) {
                DeleteItemOutput(attributes: $0, consumedCapacity: $1, itemCollectionMetrics: $2)
            }
        })

    static let updateItem = OperationRow(
        .itemWrite, touches: { (input: UpdateItemInput) in .item(input.key, table: input.tableName) }, admission: .whole(.writes),
        run: { input, context in
            // The 2026 validator refuses an ExpressionAttributeValue nested past the 32 levels an
            // item may have, before the table or the condition is looked at; the 2025 one let it
            // through to the condition (paritysuite registry/splits.json
            // update-item-nesting-depth-expression-value: 31 regions, eu-west-2 among them,
            // against eu-south-2 and me-central-1, 2026-10-07).
            if context.wording == .v2026, let values = input.expressionAttributeValues {
                do throws(DynamoError) { try ItemSize.checkNesting(values) } catch { throw error.inValidationEnvelope }
            }
            // The statement-sized ceiling came with the 2026 validator (update-item-size-* in
            // paritysuite registry/splits.json: 31 regions against eu-south-2 and me-central-1).
            let result = try context.database.updateItem(input, sizedByStatement: context.wording == .v2026)
            return written(
                result, attributes: result.returnedAttributes, table: input.tableName, capacity: input.returnConsumedCapacity
            ) {
                UpdateItemOutput(attributes: $0, consumedCapacity: $1, itemCollectionMetrics: $2)
            }
        })

    /// The output of a single-item write; DynamoDB omits `Attributes` when empty.
    private static func written<Output: DynamoShape>(
        _ result: ItemWriteResult, attributes: Item?, table: String, capacity: ReturnConsumedCapacity?,
        _ output: (Item?, ConsumedCapacity?, ItemCollectionMetrics?) -> Output
    ) -> Output {
        CapacityRecorder.report(result.capacity, table: table)
        return output(
            attributes?.isEmpty == false ? attributes : nil,
            result.capacity.shape(table: table, mode: capacity),
            result.itemCollection?.shape
        )
    }
}

extension OperationTouches {
    /// One item of one table, named by its key or as a whole.
    static func item(_ item: [String: AttributeValue], table: String) -> OperationTouches {
        OperationTouches(tables: [table], items: [(table, item)])
    }
}
