import DynamoAPI

/// The SQLite side of one vector index, maintained in the same transaction as its table.
///
/// ```
/// vec_<table>_<n>(id INTEGER PRIMARY KEY, hash INTEGER, pk BLOB, sk BLOB, part BLOB,
///                 filters BLOB, vector BLOB, size INTEGER, UNIQUE (hash, pk, sk))
/// vec_<table>_<n>_part ON (part)   -- only for an index with a HASH element
/// ```
/// One row per indexed item (see ``VectorEntry``): the table key, the encoded `HASH` value
/// (`part`, empty without a `HASH` element), the inline filters, the vector as little-endian f32
/// bytes and the projected item's size. A rowid table, not `WITHOUT ROWID`: rows hold a vector
/// of up to 16 KiB, which SQLite stores best outside the key's B-tree. Searches read the
/// entries through ``VectorIndexCache``, loaded from here by the first search after a write.
struct VectorStore {
    let table: TableDefinition
    let index: VectorIndexDefinition
    let connection: SQLiteConnection
    /// Where the index's entry count and size changes go (``StatisticsLedger``), for a store
    /// that writes in the writer's transaction; `nil` for reads and fills counted after.
    var ledger: StatisticsLedger? = nil

    var name: String { Self.name(table: table, index: index) }

    static func name(table: TableDefinition, index: VectorIndexDefinition) -> String {
        "vec_\(table.storageID)_\(index.storageNumber)"
    }

    /// Statement kinds for `SQLiteConnection.statement(_:sql:)` (112 and up; see `ItemStore`,
    /// `IndexStore` and `ExpiryIndex` for the others).
    private enum StatementKind: UInt8 {
        case upsert = 112, remove, get, firstItems, itemsAfter, insertNew
    }

    private func statementKey(_ kind: StatementKind) -> StatementKey {
        StatementKey(kind: kind.rawValue, table: table.storageID, index: 1000 + index.storageNumber)
    }

    /// Creates the index's table (dropping any earlier one of its name) inside the caller's
    /// transaction. The index on `part` (what orders the entries of one `HASH` value together)
    /// exists only when the search schema has a `HASH` element: without one every `part` is
    /// empty and the index would cost every write for nothing.
    func create() throws {
        connection.clearStatementCache()
        try connection.dropTable(named: name)
        try connection.execute(
            """
            CREATE TABLE \(name) (
                id INTEGER PRIMARY KEY,
                hash INTEGER NOT NULL,
                pk BLOB NOT NULL,
                sk BLOB NOT NULL,
                part BLOB NOT NULL,
                filters BLOB NOT NULL,
                vector BLOB NOT NULL,
                size INTEGER NOT NULL,
                UNIQUE (hash, pk, sk)
            );
            """)
        if index.hashAttribute != nil { try connection.execute("CREATE INDEX \(name)_part ON \(name) (part)") }
    }

    /// Drops the index's table, forgetting the statements cached on it.
    func drop() throws {
        connection.clearStatementCache()
        try connection.dropTable(named: name)
    }

    /// The entry of the item at `key`, if it has one.
    func entry(at key: StoredKey) throws -> VectorEntry? {
        let statement = try connection.statement(statementKey(.get)) {
            "SELECT part, filters, vector, size FROM \(name) WHERE hash = ? AND pk = ? AND sk = ?"
        }
        statement.bind(.integer(key.hash), .blob(key.partition), .blob(key.sort))
        // Reset once read: a statement left on its row keeps a reader's snapshot open.
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return VectorEntry(partition: statement.blob(0), filters: statement.blob(1), vector: statement.blob(2), size: Int(statement.int64(3)))
    }

    /// Sets the entry of the item at `key` (or removes it when the item has none).
    ///
    /// - Returns: the bytes the change replicated to the index (`VectorWriteRequestBytes`), `nil`
    ///   when it changed none of the indexed attributes (the vector, the `HASH` value, the inline
    ///   filters), as the service charges nothing for such a write.
    @discardableResult
    func set(_ key: StoredKey, entry: VectorEntry?) throws -> Int? {
        let old = try self.entry(at: key)
        guard let entry else { return try remove(key, old: old) }
        if old == entry { return nil }
        try insert(key, entry: entry)
        record(entries: old == nil ? 1 : 0, bytes: entry.size - (old?.size ?? 0))
        guard let old, old.vector == entry.vector, old.partition == entry.partition, old.filters == entry.filters else { return entry.size }
        // Only the projected item's size changed: kept for IndexSizeBytes, not charged.
        return nil
    }

    /// Writes the entry of the item at `key`, replacing any it had.
    private func insert(_ key: StoredKey, entry: VectorEntry) throws {
        let upsert = try upsertStatement()
        try key.partition.withUnsafeBytes { partition in
            try key.sort.withUnsafeBytes { sort in try insert(upsert, hash: key.hash, partition: partition, sort: sort, entry: entry) }
        }
    }

    /// The statement that writes an entry for an item that has none (and nothing when it has one).
    private func insertNewStatement() throws -> SQLiteStatement {
        try connection.statement(statementKey(.insertNew)) {
            "INSERT INTO \(name) (hash, pk, sk, part, filters, vector, size) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash, pk, sk) DO NOTHING"
        }
    }

    /// The statement that writes an entry over any the item had.
    private func upsertStatement() throws -> SQLiteStatement {
        try connection.statement(statementKey(.upsert)) {
            """
            INSERT INTO \(name) (hash, pk, sk, part, filters, vector, size) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (hash, pk, sk) DO UPDATE SET part = excluded.part, filters = excluded.filters,
                vector = excluded.vector, size = excluded.size
            """
        }
    }

    /// Runs `upsert` (or ``insertNewStatement()``) for one entry, every blob bound in place (no copy by SQLite): the key's
    /// bytes and the entry's stay valid until it has run.
    private func insert(
        _ upsert: SQLiteStatement, hash: Int64, partition: UnsafeRawBufferPointer, sort: UnsafeRawBufferPointer, entry: VectorEntry
    ) throws {
        upsert.reset()
        upsert.bind(.integer(hash), at: 1)
        upsert.bindBorrowed(partition, at: 2)
        upsert.bindBorrowed(sort, at: 3)
        upsert.bind(.integer(Int64(entry.size)), at: 7)
        try entry.partition.withUnsafeBytes { part in
            try entry.filters.withUnsafeBytes { filters in
                try entry.vector.withUnsafeBytes { vector in
                    upsert.bindBorrowed(part, at: 4)
                    upsert.bindBorrowed(filters, at: 5)
                    upsert.bindBorrowed(vector, at: 6)
                    try upsert.run()
                }
            }
        }
        // Bound in place: nothing may point at the bytes once they are gone.
        upsert.reset()
    }

    /// Removes the entry of the item at `key`, if it has one.
    ///
    /// - Returns: the removed entry's projected size (the bytes the removal replicated), `nil`
    ///   when there was none.
    @discardableResult
    func remove(_ key: StoredKey) throws -> Int? {
        try remove(key, old: entry(at: key))
    }

    private func remove(_ key: StoredKey, old: VectorEntry?) throws -> Int? {
        guard let old else { return nil }
        try connection.statement(statementKey(.remove)) { "DELETE FROM \(name) WHERE hash = ? AND pk = ? AND sk = ?" }
            .bind(.integer(key.hash), .blob(key.partition), .blob(key.sort))
            .run()
        record(entries: -1, bytes: -old.size)
        return old.size
    }

    /// Counts a change of the index's entries in the ``ledger``.
    private func record(entries: Int, bytes: Int) {
        ledger?.recordVectorIndex(of: table.name, index: index.storageNumber, entries: Int64(entries), bytes: Int64(bytes))
    }

    /// Whether the table has any item (an index added to it must be built).
    func tableHasItems() throws -> Bool {
        let statement = try connection.statement("SELECT 1 FROM \(ItemStore.name(storageID: table.storageID)) LIMIT 1")
        defer { statement.reset() }
        return try statement.step()
    }

    /// Indexes the table's items after `start` in key order, at most `limit` of them, inside
    /// the caller's write transaction (one chunk of a backfill, `Database.vectorBackfillStep`):
    /// each item's entry read in place from its stored JSON
    /// (``VectorIndexDefinition/storedEntry(json:size:projected:)``, the item decoded only where
    /// that cannot say) and written unless the index holds one for the item already: an entry
    /// there was written since the index was added, by a write that kept it in step with the
    /// item, so it is the one this would write. An item the index refuses (a vector of another
    /// length written before the index existed) is left out, as the service's backfill leaves
    /// it out. The entries written are counted in the ``ledger``.
    ///
    /// One prepared statement reads the items and one writes the entries, every blob bound
    /// where it already is: the item's key in the reading statement's row, the entry's bytes in
    /// its own arrays.
    ///
    /// - Returns: the key of the last item read when `limit` were read (more may follow it),
    ///   `nil` when the table's items ran out.
    func fill(after start: StoredKey?, limit: Int) throws -> StoredKey? {
        let items = ItemStore.name(storageID: table.storageID)
        let rows: SQLiteStatement
        if let start {
            rows = try connection.statement(statementKey(.itemsAfter)) {
                "SELECT hash, pk, sk, item, size FROM \(items) WHERE (hash, pk, sk) > (?, ?, ?) ORDER BY hash, pk, sk LIMIT ?"
            }
            rows.bind(.integer(start.hash), .blob(start.partition), .blob(start.sort), .integer(Int64(limit)))
        } else {
            rows = try connection.statement(statementKey(.firstItems)) {
                "SELECT hash, pk, sk, item, size FROM \(items) ORDER BY hash, pk, sk LIMIT ?"
            }
            rows.bind(.integer(Int64(limit)))
        }
        defer { rows.reset() }
        let insertNew = try insertNewStatement()
        let projected = index.projectedNames(table: table)
        var count = 0
        // The entries this chunk added and their sizes, counted once at the end.
        var added = 0
        var addedBytes = 0
        defer { record(entries: added, bytes: addedBytes) }
        while try rows.step() {
            count += 1
            let size = Int(rows.int64(4))
            // The vector read in place from the stored JSON; the whole item only where that cannot say.
            let found = rows.withBlob(3) { json in index.storedEntry(json: json, size: size, projected: projected) }
            let entry: VectorEntry?
            if let found {
                entry = found
            } else {
                entry = try? index.entry(of: AttributeValue.decodeItem(bytes: rows.blob(3)), table: table)
            }
            if let entry {
                // The row's key stays where it is until the next step, after the write.
                try rows.withBlob(1) { partition in
                    try rows.withBlob(2) { sort in try insert(insertNew, hash: rows.int64(0), partition: partition, sort: sort, entry: entry) }
                }
                if connection.changes == 1 {
                    added += 1
                    addedBytes += entry.size
                }
            }
            if count == limit { return StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2)) }
        }
        return nil
    }

    /// Every entry by table key (for the invariant checks).
    func all() throws -> [StoredKey: VectorEntry] {
        let statement = try connection.statement("SELECT hash, pk, sk, part, filters, vector, size FROM \(name)")
        defer { statement.reset() }
        var entries: [StoredKey: VectorEntry] = [:]
        while try statement.step() {
            let key = StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2))
            entries[key] = VectorEntry(
                partition: statement.blob(3), filters: statement.blob(4), vector: statement.blob(5), size: Int(statement.int64(6)))
        }
        return entries
    }

    /// The number of entries and the sum of their projected sizes.
    func statistics() throws -> (itemCount: Int64, sizeBytes: Int64) {
        let statement = try connection.statement("SELECT count(*), coalesce(sum(size), 0) FROM \(name)")
        defer { statement.reset() }
        _ = try statement.step()
        return (statement.int64(0), statement.int64(1))
    }

    /// Calls `visit` with every entry, entries of one `HASH` value after each other: its table
    /// key, `HASH` value, filters and vector bytes (valid during the call).
    func forEachByPartition(
        _ visit: (_ key: StoredKey, _ part: [UInt8], _ filters: [UInt8], _ vector: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        // Without a HASH element every `part` is empty: rowid order, no index walk.
        let order = index.hashAttribute == nil ? "" : " ORDER BY part"
        let statement = try connection.statement("SELECT hash, pk, sk, part, filters, vector FROM \(name)\(order)")
        defer { statement.reset() }
        while try statement.step() {
            let key = StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2))
            try statement.withBlob(5) { vector in try visit(key, statement.blob(3), statement.blob(4), vector) }
        }
    }
}

extension ItemStore {
    /// Keeps every vector index of the table in step with a put of `json` at `key` (in the
    /// write's transaction).
    ///
    /// - Returns: the bytes replicated to each index whose entry changed
    ///   (`VectorWriteRequestBytes`), by index name.
    /// - Throws: the index's `ValidationException` when the item's vector or search-schema
    ///   attributes break its rules; the transaction then rolls the whole write back.
    func updateVectorIndexes(_ key: StoredKey, json: [UInt8], item: Item?) throws -> [String: Double] {
        let item = try item ?? AttributeValue.decodeItem(bytes: json)
        var replicated: [String: Double] = [:]
        for index in table.vectorIndexes.sorted(by: { $0.name < $1.name }) {
            let entry = leavesOutInvalidVectors ? (try? index.entry(of: item, table: table)) ?? nil : try index.entry(of: item, table: table)
            if let bytes = try VectorStore(table: table, index: index, connection: connection, ledger: ledger).set(key, entry: entry) {
                replicated[index.name] = Double(bytes)
            }
        }
        return replicated
    }

    /// Removes the item at `key` from every vector index of the table.
    ///
    /// - Returns: the bytes each index's removal replicated, by index name.
    func removeFromVectorIndexes(_ key: StoredKey) throws -> [String: Double] {
        var replicated: [String: Double] = [:]
        for index in table.vectorIndexes {
            if let bytes = try VectorStore(table: table, index: index, connection: connection, ledger: ledger).remove(key) {
                replicated[index.name] = Double(bytes)
            }
        }
        return replicated
    }
}
