import DynamoAPI

extension Database {
    /// Reads a page of a table in partition-hash order (or one segment of it).
    ///
    /// - Parameters:
    ///   - segment: the parallel-scan segment and the total number of segments, if any; each
    ///     segment is an equal slice of the 64-bit hash space.
    package func scan(
        table reference: String, index indexName: String? = nil, segment: (index: Int, total: Int)?,
        fetchTableItems: Bool = false, options: ReadOptions
    ) throws -> ReadPage {
        let table = try table(named: reference)
        let (low, high) = Self.hashRange(segment: segment)
        if let indexName {
            let index = try table.readableIndex(indexName, consistentRead: options.consistentRead, operation: "Scan")
            let start = try options.exclusiveStartKey.map { try table.indexStartRow($0, index: index) }
            return try readingIndex(index) { connection in
                try connection.readTransaction {
                    let store = IndexStore(table: table, index: index, connection: connection)
                    var pager = ReadPager(table: table, options: options, index: index)
                    if fetchTableItems { pager.fetch = Self.tableItemFetcher(table: table, connection: connection) }
                    // Only in `service` mode: nothing is built for a read in `exact` mode.
                    if !options.consistentRead, consistency.isActive {
                        readEventually(
                            &pager, table: table, index: index, start: start, within: { (low...high).contains($0.key.hash) },
                            order: GhostMerge.scanOrder)
                    }
                    return try pager.page { last, count in
                        try store.scan(lowHash: low, highHash: high, after: last ?? start, limit: count)
                    }
                }
            }
        }
        let start = try options.exclusiveStartKey.map { try table.startKey($0) }
        if let start, !(low...high).contains(start.hash) {
            throw EngineMessages.providedExclusiveStartKeyDoes
        }
        return try read { connection in
            try connection.readTransaction {
                let store = ItemStore(table: table, connection: connection)
                var pager = ReadPager(table: table, options: options)
                // Only in `service` mode: nothing is built for a read in `exact` mode.
                if !options.consistentRead, consistency.isActive {
                    readEventually(
                        &pager, table: table, index: nil, start: start.map(GhostMerge.position),
                        within: { (low...high).contains($0.key.hash) }, order: GhostMerge.scanOrder)
                }
                return try pager.page { last, count in
                    try store.scan(lowHash: low, highHash: high, after: last?.key ?? start, limit: count)
                }
            }
        }
    }

    /// The inclusive hash bounds of a parallel-scan segment (the whole space without one).
    static func hashRange(segment: (index: Int, total: Int)?) -> (Int64, Int64) {
        guard let segment, segment.total > 1 else { return (Int64.min, Int64.max) }
        let width = UInt64.max / UInt64(segment.total)
        let low = UInt64(segment.index) &* width
        let high = segment.index == segment.total - 1 ? UInt64.max : UInt64(segment.index + 1) &* width - 1
        func signed(_ value: UInt64) -> Int64 { Int64(bitPattern: value ^ 0x8000_0000_0000_0000) }
        return (signed(low), signed(high))
    }
}

extension TableDefinition {
    /// Validates an `ExclusiveStartKey` against the table's key schema.
    func startKey(_ key: Item) throws(DynamoError) -> StoredKey {
        do {
            return try storedKey(fromKey: key)
        } catch {
            throw EngineMessages.startingKeyInvalidBecause(errorMessage: error.message)
        }
    }
}
