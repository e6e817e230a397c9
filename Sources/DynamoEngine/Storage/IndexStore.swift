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
    /// Where the index's entry count and size changes go (see ``StatisticsLedger``), for a
    /// store that writes in the writer's transaction.
    var ledger: StatisticsLedger? = nil

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

    /// The index key of an item, or `nil` when it lacks an index key attribute (sparse).
    ///
    /// - Throws: DynamoDB's error when an index key attribute has the wrong type or is empty.
    func indexKey(of item: Item) throws(DynamoError) -> StoredKey? {
        try index.storedKey(of: item)
    }

    /// The attributes of `item` the index projects.
    func project(_ item: Item) -> Item { Self.project(item, index: index, table: table) }

    /// The attributes of `item` that `index` of `table` projects.
    static func project(_ item: Item, index: IndexDefinition, table: TableDefinition) -> Item {
        switch index.projectionType {
        case .all:
            return item
        default:
            var projected = Item(minimumCapacity: 2 + index.keyAttributeCount + (index.nonKeyAttributes?.count ?? 0))
            func copy(_ name: String) { projected[name] = item[name] }
            copy(table.partitionKey.name)
            if let sortKey = table.sortKey { copy(sortKey.name) }
            for position in 0..<index.keyAttributeCount { copy(index.keyAttribute(at: position).name) }
            for name in index.nonKeyAttributes ?? [] { copy(name) }
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
    ///
    /// The entry count and size changes go to the ``ledger``. On an ACTIVE (or DELETING) index
    /// an old item with an index key has its entry; on a CREATING one it may not be indexed
    /// yet, so there the old entry is looked up before it is counted out.
    ///
    /// `new` carries the new item's stored JSON and size besides the item: an ALL projection's
    /// entry is the item itself, so its entry stores those bytes as they are rather than
    /// encoding the item again.
    @discardableResult
    func update(tableKey: StoredKey, old: Item?, new: StoredItem?) throws -> Double {
        // An old item may hold a key of the wrong type (written before the index existed): it
        // has no entry, and must not stop its own update or delete.
        let oldKey = old.flatMap { try? indexKey(of: $0) }
        let newKey = try new.flatMap { try indexKey(of: $0.item) }
        let oldEntry = oldKey == nil ? nil : old.map(project)
        let newEntry = newKey == nil ? nil : new.map { project($0.item) }
        var units = 0.0
        // The stored entry this write replaces or removes, if any (its size).
        var stored: Int?
        if let oldKey, let oldEntry {
            if oldKey == newKey, oldEntry == newEntry { return 0 }
            let oldSize = ItemSize.of(oldEntry)
            if ledger != nil {
                stored = index.status == .creating ? try entrySize(at: oldKey, tableKey: tableKey) : oldSize
            }
            if oldKey != newKey {
                try connection.statement(statementKey(.delete)) {
                    "DELETE FROM \(name) WHERE hash = ? AND pk = ? AND sk = ? AND tpk = ? AND tsk = ?"
                }
                .bind(
                    .integer(oldKey.hash), .blob(oldKey.partition), .blob(oldKey.sort),
                    .blob(tableKey.partition), .blob(tableKey.sort)
                )
                .run()
                units += Capacity.writeUnits(size: oldSize)
            }
        }
        var written: Int?
        if let newKey, let newEntry, let new {
            let (json, size) =
                index.projectionType == .all ? (new.json, new.size) : (ItemJSON.encode(newEntry), ItemSize.of(newEntry))
            try insert(json: json, size: size, at: newKey, tableKey: tableKey, replacing: true)
            units += Capacity.writeUnits(size: size)
            written = size
        }
        if let ledger {
            let entries = (written == nil ? 0 : 1) - (stored == nil ? 0 : 1)
            ledger.recordIndex(
                of: table.name, index: index.storageNumber, entries: Int64(entries),
                bytes: Int64((written ?? 0) - (stored ?? 0)))
        }
        return units
    }

    /// Indexes `item` for a backfill: adds its entry unless a write since the index was created
    /// added it already (that entry is the same, as the write stored this very item).
    ///
    /// - Throws: DynamoDB's error when the item's index key has the wrong type.
    func reindex(tableKey: StoredKey, item: Item) throws {
        guard let key = try indexKey(of: item), try entrySize(at: key, tableKey: tableKey) == nil else { return }
        let entry = project(item)
        let size = ItemSize.of(entry)
        try insert(json: ItemJSON.encode(entry), size: size, at: key, tableKey: tableKey, replacing: false)
        ledger?.recordIndex(of: table.name, index: index.storageNumber, entries: 1, bytes: Int64(size))
    }

    /// The size of the stored entry of the item at `tableKey` under index key `key`, if any.
    private func entrySize(at key: StoredKey, tableKey: StoredKey) throws -> Int? {
        let statement = try connection.statement(statementKey(.entrySize)) {
            "SELECT size FROM \(name) WHERE hash = ? AND pk = ? AND sk = ? AND tpk = ? AND tsk = ?"
        }
        statement.bind(
            .integer(key.hash), .blob(key.partition), .blob(key.sort), .blob(tableKey.partition),
            .blob(tableKey.sort))
        defer { statement.reset() }
        return try statement.step() ? Int(statement.int64(0)) : nil
    }

    /// Stores an entry: `json` is the projected item's wire JSON, `size` its DynamoDB size.
    private func insert(json: [UInt8], size: Int, at key: StoredKey, tableKey: StoredKey, replacing: Bool) throws {
        try connection.statement(statementKey(replacing ? .upsert : .insert)) {
            "INSERT \(replacing ? "OR REPLACE " : "")INTO \(name) (hash, pk, sk, tpk, tsk, size, item) VALUES (?, ?, ?, ?, ?, ?, ?)"
        }
        .bind(
            .integer(key.hash), .blob(key.partition), .blob(key.sort),
            .blob(tableKey.partition), .blob(tableKey.sort), .integer(Int64(size)), .blob(json)
        )
        .run()
    }

    /// The statements of index maintenance, cached by kind, table and index (see
    /// `SQLiteConnection.statement(_:sql:)`): building their text, which names the index table,
    /// and hashing it cost more per write than SQLite's insert itself on a small index.
    /// Kinds 96 and up: clear of the item statements' (1–3), Query's (16–51) and the expiry
    /// index's (64–67).
    enum StatementKind: UInt8, CaseIterable {
        case insert = 96, upsert, delete, entrySize
    }

    private func statementKey(_ kind: StatementKind) -> StatementKey {
        StatementKey(kind: kind.rawValue, table: table.storageID, index: index.storageNumber)
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
    /// - Parameters:
    ///   - newItem: the item `newJSON` encodes, when the caller has it at hand (it is then not
    ///     decoded again); `nil` to decode `newJSON`.
    /// - Returns: the write units consumed on each index.
    func updateIndexes(
        tableKey: StoredKey, oldJSON: [UInt8]?, new newJSON: (json: [UInt8], size: Int)?, newItem: Item? = nil
    ) throws -> ConsumedUnits {
        var units = ConsumedUnits()
        guard !table.indexes.isEmpty else { return units }
        let old = try oldJSON.map { try AttributeValue.decodeItem(bytes: $0) }
        let new = try newJSON.map { written in
            StoredItem(
                item: try newItem ?? AttributeValue.decodeItem(bytes: written.json),
                json: written.json, size: written.size)
        }
        for index in table.indexesByName {
            let spent = try IndexStore(table: table, index: index, connection: connection, ledger: ledger)
                .update(tableKey: tableKey, old: old, new: new)
            units.add(spent, on: index)
        }
        return units
    }
}

/// An item as a write stores it: the item, its wire JSON and its DynamoDB size (what a table
/// row holds, and what an ALL projection's index entry holds too).
struct StoredItem {
    var item: Item
    var json: [UInt8]
    var size: Int
}
