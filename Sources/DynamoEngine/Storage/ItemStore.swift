import DynamoAPI

/// The SQLite side of one DynamoDB table: one row per item, keyed so that a partition is a
/// contiguous range and partitions follow each other in hash order.
///
/// ```
/// items_<id>(hash INTEGER, pk BLOB, sk BLOB, size INTEGER, item BLOB,
///            PRIMARY KEY (hash, pk, sk)) WITHOUT ROWID
/// ```
/// `pk` and `sk` hold `KeyEncoding` bytes (`sk` is empty when the table has no sort key),
/// `item` the item's wire JSON, so a plain GetItem returns stored bytes, and `size` its
/// DynamoDB size for the table statistics.
struct ItemStore {
    let table: TableDefinition
    let connection: SQLiteConnection
    /// Where index entry changes are counted, for a store that writes in the writer's
    /// transaction (`Database.itemStore(_:in:)`); `nil` for reads and bulk fills counted after.
    var ledger: StatisticsLedger? = nil
    /// Whether an item whose vector a vector index cannot hold is left out of that index rather
    /// than refused (a restore, whose `VectorIndexOverride` may declare an index its old items
    /// do not fit, fills the new table through such a store, as a backfill leaves them out).
    var leavesOutInvalidVectors = false

    var name: String { Self.name(storageID: table.storageID) }

    /// The SQLite table holding the items of the table stored as `storageID`.
    static func name(storageID: Int64) -> String { "items_\(storageID)" }

    static func createSQL(storageID: Int64) -> String {
        """
        CREATE TABLE items_\(storageID) (
            hash INTEGER NOT NULL,
            pk BLOB NOT NULL,
            sk BLOB NOT NULL,
            size INTEGER NOT NULL,
            item BLOB NOT NULL,
            PRIMARY KEY (hash, pk, sk)
        ) WITHOUT ROWID
        """
    }

    /// The item statements, cached by kind and storage id (see `SQLiteConnection.statement(_:sql:)`;
    /// Query's statements use kinds 16 and up, see `querySQLKey`).
    private enum StatementKind: UInt8 {
        case get = 1, put, delete
    }

    private func statementKey(_ kind: StatementKind) -> StatementKey {
        StatementKey(kind: kind.rawValue, table: table.storageID)
    }

    /// The stored JSON and size of the item with this key, if any.
    func get(_ key: StoredKey) throws -> (json: [UInt8], size: Int)? {
        let statement = try connection.statement(statementKey(.get)) {
            "SELECT item, size FROM \(name) WHERE hash = ? AND pk = ? AND sk = ?"
        }
        statement.bind(.integer(key.hash), at: 1)
        // Reset once read (by `withBorrowedBlobs`): a statement left on its row keeps a reader's
        // snapshot open.
        return try statement.withBorrowedBlobs(key.partition, key.sort, at: 2) {
            guard try statement.step() else { return nil }
            return (statement.blob(0), Int(statement.int64(1)))
        }
    }

    /// Inserts or replaces an item, and its entries in the table's indexes (reading the stored
    /// item first when the table has indexes), expiry index (``ExpiryIndex``, with TTL on) and
    /// vector indexes (``VectorStore``).
    ///
    /// - Returns: the write units the change consumed on the indexes (none on the table), and
    ///   the bytes it replicated to vector indexes.
    @discardableResult
    func put(_ key: StoredKey, json: [UInt8], size: Int) throws -> ConsumedUnits {
        try put(key, json: json, size: size, replacing: table.indexes.isEmpty ? nil : get(key)?.json)
    }

    /// ``put(_:json:size:)`` for a caller that read the stored item in this write transaction
    /// already: `oldJSON` is that item's JSON (`nil`: there was none), so index maintenance does
    /// not read it a second time.
    ///
    /// `item`, when given, is the item `json` encodes (with `size` its ``ItemSize``): a caller
    /// that built the JSON from it passes it so index maintenance need not decode the JSON again.
    @discardableResult
    func put(_ key: StoredKey, json: [UInt8], size: Int, replacing oldJSON: [UInt8]?, item: Item? = nil) throws -> ConsumedUnits {
        var units = ConsumedUnits()
        if !table.indexes.isEmpty {
            units = try updateIndexes(tableKey: key, oldJSON: oldJSON, new: (json, size), newItem: item)
        }
        let statement = try connection.statement(statementKey(.put)) {
            "INSERT OR REPLACE INTO \(name) (hash, pk, sk, size, item) VALUES (?, ?, ?, ?, ?)"
        }
        statement.bind(.integer(key.hash), at: 1)
        statement.bind(.integer(Int64(size)), at: 4)
        // The key and the item bound in place, not copied: the step is done in their scope.
        try json.withUnsafeBytes { item in
            try statement.withBorrowedBlobs(key.partition, key.sort, at: 2) {
                statement.bindBorrowed(item, at: 5)
                try statement.run()
            }
        }
        if let attribute = table.expiryAttribute {
            try ExpiryIndex(storageID: table.storageID, connection: connection).update(key, json: json, attribute: attribute)
        }
        if !table.vectorIndexes.isEmpty {
            units.vectorIndexes = try updateVectorIndexes(key, json: json, item: item)
        }
        return units
    }

    /// Deletes an item if present, and its index and expiry-index entries.
    ///
    /// - Returns: the write units the removal consumed on the indexes (none on the table).
    @discardableResult
    func delete(_ key: StoredKey) throws -> ConsumedUnits {
        try delete(key, removing: table.indexes.isEmpty ? nil : get(key)?.json)
    }

    /// ``delete(_:)`` for a caller that read the stored item in this write transaction already
    /// (`oldJSON`, `nil` when there was none).
    @discardableResult
    func delete(_ key: StoredKey, removing oldJSON: [UInt8]?) throws -> ConsumedUnits {
        var units = ConsumedUnits()
        if !table.indexes.isEmpty, let oldJSON {
            units = try updateIndexes(tableKey: key, oldJSON: oldJSON, new: nil)
        }
        let statement = try connection.statement(statementKey(.delete)) {
            "DELETE FROM \(name) WHERE hash = ? AND pk = ? AND sk = ?"
        }
        statement.bind(.integer(key.hash), at: 1)
        try statement.withBorrowedBlobs(key.partition, key.sort, at: 2) { try statement.run() }
        if table.expiryAttribute != nil {
            try ExpiryIndex(storageID: table.storageID, connection: connection).remove(key)
        }
        if !table.vectorIndexes.isEmpty {
            units.vectorIndexes = try removeFromVectorIndexes(key)
        }
        return units
    }

    /// Counts items and adds up their sizes (used once per table, then kept live).
    func statistics() throws -> TableStatistics {
        let statement = try connection.statement("SELECT count(*), coalesce(sum(size), 0) FROM \(name)")
        // Reset once read: a statement left on its row keeps a reader's snapshot open.
        defer { statement.reset() }
        _ = try statement.step()
        return TableStatistics(itemCount: statement.int64(0), sizeBytes: statement.int64(1))
    }
}

/// A primary key in its stored form.
struct StoredKey: Hashable, Sendable {
    var hash: Int64
    var partition: [UInt8]
    var sort: [UInt8]
}
