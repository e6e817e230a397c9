import DynamoAPI

/// The expiry index of a table with Time to Live on: one row per item whose TTL attribute is a
/// Number, holding that number as epoch seconds, so a sweep reads only the rows due rather than
/// the whole table.
///
/// ```
/// ttl_<storage id>(hash INTEGER, pk BLOB, sk BLOB, expires REAL,
///                  PRIMARY KEY (hash, pk, sk)) WITHOUT ROWID
/// ttl_<storage id>_expires ON (expires)
/// ```
/// The table exists exactly while TTL is enabled: created and filled from the items when
/// UpdateTimeToLive enables it (or a schema-3 file is opened), dropped when TTL is disabled or
/// the table deleted. ``ItemStore`` keeps it current on every put and delete, so every write
/// path (item operations, batches, transactions, PartiQL, imports, replication, the sweeper)
/// maintains it in the transaction of the write. An item whose attribute is missing or not a
/// Number has no row; the five-year horizon depends on the time of the sweep, so it is applied
/// when reading (``expired(now:after:limit:)``), not when writing.
struct ExpiryIndex {
    let storageID: Int64
    let connection: SQLiteConnection

    var name: String { Self.name(storageID: storageID) }

    static func name(storageID: Int64) -> String { "ttl_\(storageID)" }

    /// Statement kinds for `SQLiteConnection.statement(_:sql:)` (item statements use 1–3, Query's 16–51).
    private enum StatementKind: UInt8 {
        case upsert = 64, remove, firstPage, nextPage
    }

    private func statementKey(_ kind: StatementKind) -> StatementKey {
        StatementKey(kind: kind.rawValue, table: storageID)
    }

    // MARK: Values

    /// The expiry time an attribute value stands for: a Number's value in epoch seconds; `nil`
    /// (never expires) for anything else.
    static func expiry(of value: AttributeValue?) -> Double? {
        guard case .n(let number)? = value else { return nil }
        return Double(number.description)
    }

    /// The expiry time of the stored item `json` under the TTL attribute `attribute`.
    static func expiry(json: [UInt8], attribute: String) throws -> Double? {
        guard let member = try JSONValue(parsing: json)[attribute] else { return nil }
        return expiry(of: try AttributeValue(json: member))
    }

    // MARK: Maintenance

    /// Sets (or removes) the row of the item `key` after it was written as `json`.
    func update(_ key: StoredKey, json: [UInt8], attribute: String) throws {
        guard let expires = try Self.expiry(json: json, attribute: attribute) else {
            try remove(key)
            return
        }
        try connection.statement(statementKey(.upsert)) {
            "INSERT OR REPLACE INTO \(name) (hash, pk, sk, expires) VALUES (?, ?, ?, ?)"
        }
        .bind(.integer(key.hash), .blob(key.partition), .blob(key.sort), .real(expires))
        .run()
    }

    /// Removes the row of the item `key`, if it has one.
    func remove(_ key: StoredKey) throws {
        try connection.statement(statementKey(.remove)) { "DELETE FROM \(name) WHERE hash = ? AND pk = ? AND sk = ?" }
            .bind(.integer(key.hash), .blob(key.partition), .blob(key.sort))
            .run()
    }

    /// Creates the index of `table` (replacing any earlier one) and fills it from its items, as
    /// the definition's TTL attribute says, inside the caller's write transaction.
    static func rebuild(for table: TableDefinition, connection: SQLiteConnection) throws {
        try drop(storageID: table.storageID, connection: connection)
        guard let attribute = table.expiryAttribute else { return }
        let index = ExpiryIndex(storageID: table.storageID, connection: connection)
        try connection.execute(
            """
            CREATE TABLE \(index.name) (
                hash INTEGER NOT NULL,
                pk BLOB NOT NULL,
                sk BLOB NOT NULL,
                expires REAL NOT NULL,
                PRIMARY KEY (hash, pk, sk)
            ) WITHOUT ROWID;
            CREATE INDEX \(index.name)_expires ON \(index.name) (expires);
            """)
        let rows = try connection.statement("SELECT hash, pk, sk, item FROM \(ItemStore(table: table, connection: connection).name)")
        defer { rows.reset() }
        while try rows.step() {
            let key = StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2))
            try index.update(key, json: rows.blob(3), attribute: attribute)
        }
    }

    /// Drops a table's index, forgetting the statements cached on it.
    static func drop(storageID: Int64, connection: SQLiteConnection) throws {
        connection.clearStatementCache()
        try connection.dropTable(named: name(storageID: storageID))
    }

    // MARK: Reads

    /// A position in the index's `(expires, key)` order.
    struct Entry: Sendable, Equatable {
        var expires: Double
        var key: StoredKey
    }

    /// Up to `limit` entries due at `now`, in `(expires, key)` order after `after`: expiry at or
    /// before `now` and not more than ``TimeToLiveExpiry/horizonSeconds`` before it.
    func expired(now: Double, after: Entry?, limit: Int) throws -> [Entry] {
        let statement: SQLiteStatement
        let low = now - TimeToLiveExpiry.horizonSeconds
        if let after {
            statement = try connection.statement(statementKey(.nextPage)) {
                """
                SELECT expires, hash, pk, sk FROM \(name)
                WHERE expires >= ? AND expires <= ? AND (expires, hash, pk, sk) > (?, ?, ?, ?)
                ORDER BY expires, hash, pk, sk LIMIT ?
                """
            }
            statement.bind(
                .real(low), .real(now), .real(after.expires), .integer(after.key.hash),
                .blob(after.key.partition), .blob(after.key.sort), .integer(Int64(limit)))
        } else {
            statement = try connection.statement(statementKey(.firstPage)) {
                "SELECT expires, hash, pk, sk FROM \(name) WHERE expires >= ? AND expires <= ? ORDER BY expires, hash, pk, sk LIMIT ?"
            }
            statement.bind(.real(low), .real(now), .integer(Int64(limit)))
        }
        defer { statement.reset() }
        var entries: [Entry] = []
        while try statement.step() {
            entries.append(
                Entry(
                    expires: statement.double(0),
                    key: StoredKey(hash: statement.int64(1), partition: statement.blob(2), sort: statement.blob(3))))
        }
        return entries
    }

    /// Every row, by item key (for the invariant checks).
    func all() throws -> [StoredKey: Double] {
        let statement = try connection.statement("SELECT hash, pk, sk, expires FROM \(name)")
        defer { statement.reset() }
        var rows: [StoredKey: Double] = [:]
        while try statement.step() {
            rows[StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2))] = statement.double(3)
        }
        return rows
    }
}

extension TableDefinition {
    /// The TTL attribute while Time to Live is enabled (the table then has an ``ExpiryIndex``).
    var expiryAttribute: String? { ttlEnabled ? ttlAttribute : nil }
}
