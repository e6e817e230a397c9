import DynamoAPI

/// The SQLite side of one vector index, maintained in the same transaction as its table.
///
/// ```
/// vec_<table>_<n>(id INTEGER PRIMARY KEY, hash INTEGER, pk BLOB, sk BLOB, part BLOB,
///                 filters BLOB, vector BLOB, size INTEGER, UNIQUE (hash, pk, sk))
/// vec_<table>_<n>_part ON (part)
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

    var name: String { Self.name(table: table, index: index) }

    static func name(table: TableDefinition, index: VectorIndexDefinition) -> String {
        "vec_\(table.storageID)_\(index.storageNumber)"
    }

    /// Statement kinds for `SQLiteConnection.statement(_:sql:)` (112 and up; see `ItemStore`,
    /// `IndexStore` and `ExpiryIndex` for the others).
    private enum StatementKind: UInt8 {
        case upsert = 112, remove
    }

    private func statementKey(_ kind: StatementKind) -> StatementKey {
        StatementKey(kind: kind.rawValue, table: table.storageID, index: 1000 + index.storageNumber)
    }

    /// Creates the index's table (dropping any earlier one of its name) inside the caller's transaction.
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
            CREATE INDEX \(name)_part ON \(name) (part);
            """)
    }

    /// Drops the index's table, forgetting the statements cached on it.
    func drop() throws {
        connection.clearStatementCache()
        try connection.dropTable(named: name)
    }

    /// Sets the entry of the item at `key` (or removes it when the item has none).
    func set(_ key: StoredKey, entry: VectorEntry?) throws {
        guard let entry else {
            try remove(key)
            return
        }
        try connection.statement(statementKey(.upsert)) {
            """
            INSERT INTO \(name) (hash, pk, sk, part, filters, vector, size) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (hash, pk, sk) DO UPDATE SET part = excluded.part, filters = excluded.filters,
                vector = excluded.vector, size = excluded.size
            """
        }
        .bind(
            .integer(key.hash), .blob(key.partition), .blob(key.sort), .blob(entry.partition), .blob(entry.filters),
            .blob(entry.vector), .integer(Int64(entry.size))
        )
        .run()
    }

    /// Removes the entry of the item at `key`, if it has one.
    func remove(_ key: StoredKey) throws {
        try connection.statement(statementKey(.remove)) { "DELETE FROM \(name) WHERE hash = ? AND pk = ? AND sk = ?" }
            .bind(.integer(key.hash), .blob(key.partition), .blob(key.sort))
            .run()
    }

    /// Fills the index from the table's items, inside the caller's write transaction (an
    /// UpdateTable Create, a restore, an import). An item the index refuses (a vector of another
    /// length written before the index existed) is left out, as a backfill leaves it out.
    ///
    /// - Returns: how many items the table holds.
    @discardableResult
    func fill() throws -> Int {
        var count = 0
        let rows = try connection.statement("SELECT hash, pk, sk, item FROM \(ItemStore.name(storageID: table.storageID))")
        defer { rows.reset() }
        while try rows.step() {
            count += 1
            let key = StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2))
            let item = try AttributeValue.decodeItem(bytes: rows.blob(3))
            guard let entry = try? index.entry(of: item, table: table) else { continue }
            try set(key, entry: entry)
        }
        return count
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
    /// - Throws: the index's `ValidationException` when the item's vector or search-schema
    ///   attributes break its rules; the transaction then rolls the whole write back.
    func updateVectorIndexes(_ key: StoredKey, json: [UInt8], item: Item?) throws {
        let item = try item ?? AttributeValue.decodeItem(bytes: json)
        for index in table.vectorIndexes.sorted(by: { $0.name < $1.name }) {
            let entry = try index.entry(of: item, table: table)
            try VectorStore(table: table, index: index, connection: connection).set(key, entry: entry)
        }
    }

    /// Removes the item at `key` from every vector index of the table.
    func removeFromVectorIndexes(_ key: StoredKey) throws {
        for index in table.vectorIndexes {
            try VectorStore(table: table, index: index, connection: connection).remove(key)
        }
    }
}

extension Database {
    /// `ItemCount` and `IndexSizeBytes` of each vector index of `table`, counted on a reader
    /// (the service refreshes its figures every six hours; these are exact).
    func vectorIndexStatistics(of table: TableDefinition) throws -> [String: (itemCount: Int64, sizeBytes: Int64)] {
        try read { connection in
            var counted: [String: (itemCount: Int64, sizeBytes: Int64)] = [:]
            for index in table.vectorIndexes {
                // A table deleted since it was looked up has no rows left to count.
                counted[index.name] = (try? VectorStore(table: table, index: index, connection: connection).statistics()) ?? (0, 0)
            }
            return counted
        }
    }
}
