import DynamoAPI

/// The SQLite side of one secondary index, maintained in the same transaction as its table.
///
/// ```
/// index_<table>_<n>(hash INTEGER, pk BLOB, sk BLOB, tpk BLOB, tsk BLOB, size INTEGER, item BLOB,
///                   PRIMARY KEY (hash, pk, sk, tpk, tsk)) WITHOUT ROWID
/// ```
/// `pk`/`sk` are the index key (an LSI's `pk` is the table's partition key), `tpk`/`tsk` the
/// table key that makes an entry unique, `item` the projected item's wire JSON and `size` its
/// DynamoDB size (what a read of the index consumes, and what IndexSizeBytes adds up). An item without every index key
/// attribute has no entry: indexes are sparse, as in DynamoDB.
struct IndexStore {
    let table: TableDefinition
    let index: IndexDefinition
    let connection: SQLiteConnection

    var name: String { Self.name(table: table, index: index) }

    static func name(table: TableDefinition, index: IndexDefinition) -> String {
        "index_\(table.storageID)_\(index.storageNumber)"
    }

    static func createSQL(table: TableDefinition, index: IndexDefinition) -> String {
        """
        CREATE TABLE \(name(table: table, index: index)) (
            hash INTEGER NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL,
            tpk BLOB NOT NULL, tsk BLOB NOT NULL, size INTEGER NOT NULL, item BLOB NOT NULL,
            PRIMARY KEY (hash, pk, sk, tpk, tsk)
        ) WITHOUT ROWID
        """
    }

    static func dropSQL(table: TableDefinition, index: IndexDefinition) -> String {
        "DROP TABLE IF EXISTS \(name(table: table, index: index))"
    }

    /// The index key of an item, or `nil` when it lacks an index key attribute (sparse).
    ///
    /// - Throws: DynamoDB's error when an index key attribute has the wrong type or is empty.
    func indexKey(of item: Item) throws(DynamoError) -> StoredKey? {
        try index.storedKey(of: item)
    }

    /// The attributes of `item` the index projects.
    func project(_ item: Item) -> Item {
        switch index.projectionType {
        case .all:
            return item
        default:
            var projected = Item()
            for name in table.keyAttributes.map(\.name) + index.keyAttributes.map(\.name)
                + (index.nonKeyAttributes ?? [])
            {
                projected[name] = item[name]
            }
            return projected
        }
    }

    /// Replaces the entry of the item at `tableKey`: removes the old item's, adds the new one's.
    ///
    /// - Returns: the write units the change costs on the index, by DynamoDB's rules: a new
    ///   entry is a put of its size, a removed one a delete of its size, an entry whose index
    ///   key changed both, an entry whose projected attributes changed a put, and an unchanged
    ///   entry nothing. An entry's size is that of the projected item.
    /// - Throws: DynamoDB's error when the new item's index key has the wrong type.
    @discardableResult
    func update(tableKey: StoredKey, old: Item?, new: Item?) throws -> Double {
        // An old item may hold a key of the wrong type (written before the index existed): it
        // has no entry, and must not stop its own update or delete.
        let oldKey = old.flatMap { try? indexKey(of: $0) }
        let newKey = try new.flatMap { try indexKey(of: $0) }
        let oldEntry = oldKey == nil ? nil : old.map(project)
        let newEntry = newKey == nil ? nil : new.map(project)
        var units = 0.0
        if let oldKey, let oldEntry {
            if oldKey == newKey {
                if oldEntry == newEntry { return 0 }
            } else {
                try connection.statement("DELETE FROM \(name) WHERE hash = ? AND pk = ? AND sk = ? AND tpk = ? AND tsk = ?")
                    .bind(
                        .integer(oldKey.hash), .blob(oldKey.partition), .blob(oldKey.sort),
                        .blob(tableKey.partition), .blob(tableKey.sort)
                    )
                    .run()
                units += Capacity.writeUnits(size: ItemSize.of(oldEntry))
            }
        }
        if let newKey, let newEntry {
            let size = ItemSize.of(newEntry)
            try connection.statement("INSERT OR REPLACE INTO \(name) (hash, pk, sk, tpk, tsk, size, item) VALUES (?, ?, ?, ?, ?, ?, ?)")
                .bind(
                    .integer(newKey.hash), .blob(newKey.partition), .blob(newKey.sort),
                    .blob(tableKey.partition), .blob(tableKey.sort), .integer(Int64(size)),
                    .blob(ItemJSON.encode(newEntry))
                )
                .run()
            units += Capacity.writeUnits(size: size)
        }
        return units
    }

    /// Entries and their total size, for DescribeTable.
    func statistics() throws -> TableStatistics {
        let statement = try connection.statement("SELECT count(*), coalesce(sum(size), 0) FROM \(name)")
        // Reset once read: a statement left on its row keeps a reader's snapshot open.
        defer { statement.reset() }
        _ = try statement.step()
        return TableStatistics(itemCount: statement.int64(0), sizeBytes: statement.int64(1))
    }
}

extension ItemStore {
    /// Brings every index of the table in line with a write of `tableKey` (inside the write's
    /// transaction). Only tables with indexes pay for decoding the items.
    ///
    /// - Returns: the write units consumed on each index.
    func updateIndexes(tableKey: StoredKey, oldJSON: [UInt8]?, newJSON: [UInt8]?) throws -> ConsumedUnits {
        var units = ConsumedUnits()
        guard !table.indexes.isEmpty else { return units }
        let old = try oldJSON.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
        let new = try newJSON.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
        for index in table.indexesByName {
            let spent = try IndexStore(table: table, index: index, connection: connection)
                .update(tableKey: tableKey, old: old, new: new)
            units.add(spent, on: index)
        }
        return units
    }
}
