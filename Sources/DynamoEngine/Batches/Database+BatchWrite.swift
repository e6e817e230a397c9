import DynamoAPI

/// What BatchWriteItem did, per table.
package struct BatchWriteResult: Sendable {
    /// Write capacity consumed per table name (as the request named the table).
    package var capacity: [String: ConsumedUnits]
    /// The item collections written per table name, for `ReturnItemCollectionMetrics=SIZE`.
    package var itemCollections: [String: [ItemCollectionMetric]] = [:]
}

extension Database {
    /// The most write requests one BatchWriteItem may carry.
    static let maximumBatchWrites = 25

    /// Puts and deletes up to 25 items over any tables.
    ///
    /// Every request is validated before anything is written (a bad request fails the whole call,
    /// as in DynamoDB); then all writes commit in one transaction, so nothing is ever left
    /// unprocessed and `UnprocessedItems` is always empty.
    package func batchWriteItem(_ input: BatchWriteItemInput) throws -> BatchWriteResult {
        let total = input.requestItems.values.reduce(0) { $0 + $1.count }
        if total > Self.maximumBatchWrites {
            throw EngineMessages.tooManyItemsRequestedBatchWriteItem
        }
        struct PlannedWrite {
            var table: TableDefinition
            var requestedName: String
            var key: StoredKey
            /// The new item, its JSON and size, or `nil` for a delete.
            var put: (item: Item, json: [UInt8], size: Int)?
        }
        var planned: [PlannedWrite] = []
        planned.reserveCapacity(total)
        for (requestedName, requests) in input.requestItems.sorted(by: { $0.key < $1.key }) {
            let table = try table(named: requestedName)
            var seen = Set<StoredKey>(minimumCapacity: requests.count)
            for request in requests {
                let write: PlannedWrite
                switch (request.putRequest, request.deleteRequest) {
                case (let put?, nil):
                    // A key attribute missing or of the wrong type is worded like a Key parameter's
                    // mismatch (paritysuite's batchWriteItem test, captured in us-east-1 and
                    // eu-west-2 on 2026-10-09: not PutItem's "Missing the key" sentence).
                    if table.keyAttributes.contains(where: { attribute in
                        put.item[attribute.name].map { !attribute.type.matches($0) } ?? true
                    }) {
                        throw TableDefinition.schemaMismatch
                    }
                    let key = try table.storedKey(forItem: put.item)
                    let measured = ItemSize.measure(put.item)
                    let size = measured.size
                    if size > ItemSize.maximum {
                        throw EngineMessages.itemTooLarge
                    }
                    try measured.checkNamesAndNesting()
                    write = PlannedWrite(
                        table: table, requestedName: requestedName, key: key,
                        put: (put.item, ItemJSON.encode(put.item, size: size), size))
                case (nil, let delete?):
                    write = PlannedWrite(
                        table: table, requestedName: requestedName,
                        key: try table.storedKey(fromKey: delete.key), put: nil)
                default:
                    throw EngineMessages.suppliedAttributeValueMoreThanOne
                }
                guard seen.insert(write.key).inserted else {
                    throw EngineMessages.duplicateKeys
                }
                planned.append(write)
            }
        }
        return try write { state in
            var capacity: [String: ConsumedUnits] = [:]
            for write in planned {
                let store = try itemStore(write.table, in: state)
                let old = try store.get(write.key)
                var units = ConsumedUnits()
                if let put = write.put {
                    units = try store.put(write.key, json: put.json, size: put.size, replacing: old?.json, item: put.item)
                } else if let old {
                    units = try store.delete(write.key, removing: old.json)
                }
                try recordChange(
                    &state, table: write.table, store: store, key: write.key, old: old,
                    new: write.put.map { ($0.json, $0.size) })
                let size = max(write.put?.size ?? 0, old?.size ?? 0)
                units.table = Capacity.writeUnits(size: size)
                capacity[write.requestedName, default: ConsumedUnits()].add(units)
            }
            var result = BatchWriteResult(capacity: capacity)
            result.itemCollections = try itemCollections(
                of: planned.map { ($0.requestedName, $0.table, $0.key) },
                mode: input.returnItemCollectionMetrics, connection: state.connection)
            return result
        }
    }
}
