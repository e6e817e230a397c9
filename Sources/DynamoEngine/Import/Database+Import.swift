import DynamoAPI
import Synchronization

extension Database {
    /// Recreates one of DynamoDB Local's tables: an ordinary CreateTable (as of the table's own
    /// creation time), its TTL setting and pay-per-request date, then its items.
    ///
    /// - Returns: how many items were written.
    func importTable(_ table: DynamoDBLocalTable, from file: DynamoDBLocalFile) throws -> Int {
        _ = try createTable(table.input, now: table.creationDateTime)
        if table.ttlAttribute != nil || table.billingModeLastUpdate != nil {
            _ = try updateDefinition(named: table.name) { definition, connection in
                if let attribute = table.ttlAttribute {
                    definition.ttlAttribute = attribute
                    definition.ttlEnabled = true
                    try ExpiryIndex.rebuild(for: definition, connection: connection)
                }
                if let since = table.billingModeLastUpdate { definition.billingModeLastUpdate = since }
            }
        }
        var count = 0
        try file.forEachItemChunk(of: table.name) { items in
            try importItems(items, into: table.name)
            count += items.count
        }
        return count
    }

    /// Writes items as they are (no conditions, no return values) in one transaction, keeping
    /// every index and the table's statistics current, as PutItem does.
    func importItems(_ items: [Item], into name: String) throws {
        let table = try table(named: name)
        let prepared = try items.map { item in
            let size = ItemSize.of(item)
            if size > ItemSize.maximum {
                throw EngineMessages.itemTooLarge
            }
            return (key: try table.storedKey(forItem: item), json: ItemJSON.encode(item), size: size)
        }
        try write { state in try putRows(prepared, into: table, state: &state) }
    }

    /// Puts each row as it is (replacing any item with its key) inside the running write
    /// transaction, keeping the table's indexes and statistics current.
    func putRows(
        _ rows: some Sequence<(key: StoredKey, json: [UInt8], size: Int)>, into table: TableDefinition,
        state: inout WriterState
    ) throws {
        let store = try itemStore(table, in: state)
        for row in rows {
            let old = try store.get(row.key)
            _ = try store.put(row.key, json: row.json, size: row.size, replacing: old?.json)
            try updateStatistics(&state, table: table, store: store, removed: old?.size, added: row.size)
        }
    }

    /// Moves everything in the write-ahead log into the database file, so the file alone holds
    /// every committed write (before it is renamed into place).
    func checkpoint() throws {
        try writer.withLock { state in
            // A checkpoint needs no statement of this connection to be reading.
            state.connection.clearStatementCache()
            try state.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Rebuilds the file compactly (`VACUUM`) and refreshes the query planner's statistics
    /// (`PRAGMA optimize`).
    package func compact() throws {
        try writer.withLock { state in
            state.connection.clearStatementCache()
            try state.connection.execute("VACUUM")
            try state.connection.execute("PRAGMA optimize")
        }
    }
}
