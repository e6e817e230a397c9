import DynamoAPI

extension ConsumedUnits {
    /// Whether `ReturnConsumedCapacity` asks for capacity in the answer (`TOTAL` or `INDEXES`).
    package static func reported(_ mode: ReturnConsumedCapacity?) -> Bool {
        mode == .total || mode == .indexes
    }

    /// `ConsumedCapacity` of a single-table operation as `mode` asks for it: nothing for `NONE`
    /// (or absent), the total for `TOTAL`, and the total with its split over the table and each
    /// index for `INDEXES` (with the bytes written to each vector index, `VectorIndexes`).
    package func shape(table: String, mode: ReturnConsumedCapacity?) -> ConsumedCapacity? {
        guard Self.reported(mode) else { return nil }
        var capacity = ConsumedCapacity(tableName: table, capacityUnits: total)
        if mode == .indexes {
            // A transaction's answer also names the kind of its units, on the entry and on each
            // part (recorded: TransactWriteItems' `WriteCapacityUnits`, paritysuite eu-west-2
            // 2026-06; the table's and each index's, a 2021 response in rusoto#1919).
            let kind = reportedAs
            func part(_ units: Double) -> DynamoAPI.Capacity {
                DynamoAPI.Capacity(
                    readCapacityUnits: kind == .read ? units : nil, writeCapacityUnits: kind == .write ? units : nil,
                    capacityUnits: units)
            }
            if kind == .read { capacity.readCapacityUnits = total }
            if kind == .write { capacity.writeCapacityUnits = total }
            capacity.table = part(self.table)
            if !localIndexes.isEmpty {
                capacity.localSecondaryIndexes = localIndexes.mapValues(part)
            }
            if !globalIndexes.isEmpty {
                capacity.globalSecondaryIndexes = globalIndexes.mapValues(part)
            }
            if !vectorIndexes.isEmpty {
                capacity.vectorIndexes = vectorIndexes.mapValues { VectorCapacity(vectorWriteRequestBytes: $0) }
            }
        }
        return capacity
    }

    /// `ConsumedCapacity` of a batch or transaction: one entry per table, in name order.
    package static func shapes(_ units: [String: ConsumedUnits], mode: ReturnConsumedCapacity?) -> [ConsumedCapacity]? {
        guard reported(mode) else { return nil }
        return units.sorted { $0.key < $1.key }.compactMap { $0.value.shape(table: $0.key, mode: mode) }
    }
}

extension ItemCollectionMetric {
    /// The metric as the answer's `ItemCollectionMetrics`.
    package var shape: ItemCollectionMetrics {
        let range = sizeEstimateRangeGB
        return ItemCollectionMetrics(itemCollectionKey: key, sizeEstimateRangeGB: [range.lower, range.upper])
    }

    /// `ItemCollectionMetrics` of a batch or transaction when `mode` is `SIZE` (an empty map when
    /// no table written has a local secondary index), by table.
    package static func shapes(
        _ metrics: [String: [ItemCollectionMetric]],
        mode: ReturnItemCollectionMetrics?
    ) -> [String: [ItemCollectionMetrics]]? {
        guard mode == .size else { return nil }
        return metrics.mapValues { $0.map(\.shape) }
    }
}
