import DynamoAPI

/// An item collection (every item of one partition key value in a table with local secondary
/// indexes, plus their LSI entries) and its size, for `ReturnItemCollectionMetrics=SIZE`.
///
/// DynamoDB limits an item collection to 10 GB; this server reports sizes but does not enforce
/// the limit (see docs/limits.md).
package struct ItemCollectionMetric: Sendable, Equatable {
    /// The partition key attribute and its value (`ItemCollectionKey`).
    package var key: Item
    /// Bytes of the table's items and their LSI entries in the collection.
    package var sizeBytes: Int64

    /// `SizeEstimateRangeGB`: the whole gigabytes below and above the size, as DynamoDB's
    /// estimate brackets it.
    package var sizeEstimateRangeGB: (lower: Double, upper: Double) {
        let gigabytes = (Double(sizeBytes) / Double(1 << 30)).rounded(.down)
        return (gigabytes, gigabytes + 1)
    }
}

extension Database {
    /// The collection of `partition` in `table` measured inside the current transaction, or `nil`
    /// when the table has no local secondary index (DynamoDB then returns no metrics).
    func itemCollection(
        _ table: TableDefinition, partition: StoredKey,
        connection: SQLiteConnection
    ) throws -> ItemCollectionMetric? {
        guard !table.localIndexes.isEmpty,
            let value = KeyEncoding.decode(partition.partition, as: table.partitionKey.type)
        else { return nil }
        var size: Int64 = 0
        let stores =
            [ItemStore(table: table, connection: connection).name]
            + table.localIndexes.map { IndexStore.name(table: table, index: $0) }
        for store in stores {
            let statement = try connection.statement("SELECT coalesce(sum(size), 0) FROM \(store) WHERE hash = ? AND pk = ?")
            statement.bind(.integer(partition.hash), .blob(partition.partition))
            _ = try statement.step()
            size += statement.int64(0)
            statement.reset()
        }
        return ItemCollectionMetric(key: [table.partitionKey.name: value], sizeBytes: size)
    }

    /// Metrics for the distinct collections `keys` wrote in `table`, in first-write order, when
    /// `mode` is `SIZE` and the table has local secondary indexes.
    func itemCollections(
        _ table: TableDefinition, keys: [StoredKey], mode: ReturnItemCollectionMetrics?,
        connection: SQLiteConnection
    ) throws -> [ItemCollectionMetric] {
        guard mode == .size, !table.localIndexes.isEmpty else { return [] }
        var seen = Set<[UInt8]>()
        return try keys.filter { seen.insert($0.partition).inserted }.compactMap {
            try itemCollection(table, partition: $0, connection: connection)
        }
    }

    /// Metrics per requested table name for the writes of a batch or transaction, given as
    /// (table name as requested, definition, key) in request order.
    func itemCollections(
        of writes: [(name: String, table: TableDefinition, key: StoredKey)], mode: ReturnItemCollectionMetrics?,
        connection: SQLiteConnection
    ) throws -> [String: [ItemCollectionMetric]] {
        var result: [String: [ItemCollectionMetric]] = [:]
        guard mode == .size else { return result }
        for (name, group) in Dictionary(grouping: writes, by: \.name) {
            let table = itemStore(group[0].table, connection: connection).table
            let metrics = try itemCollections(table, keys: group.map(\.key), mode: mode, connection: connection)
            if !metrics.isEmpty { result[name] = metrics }
        }
        return result
    }
}
