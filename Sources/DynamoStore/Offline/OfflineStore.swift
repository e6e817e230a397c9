import DynamoAPI
import Foundation
import Synchronization

/// The device's copy of the store: a SQLite file holding the rows the app has read (the cache)
/// and the saves not yet stored in DynamoDB (the outbox), so the app reads and saves without a
/// network and a relaunch finds both.
///
/// Give it to the store; from then on ``ObjectContext/save()`` commits to the file first
/// (atomic, fsync'd, before it returns), fetches and faults see the local changes at once, and
/// ``DynamoStore/replayOutbox()`` stores the saves in DynamoDB when the network is back.
///
/// ```swift
/// let offline = try OfflineStore(path: documents.appendingPathComponent("notes.sqlite").path)
/// let store = try DynamoStore(types: [Note.self], client: client, offline: offline)
/// ```
public final class OfflineStore: Sendable {
    /// The file.
    public let path: String
    /// The most cached rows kept; past it the least recently used rows no outbox entry names
    /// are evicted.
    public let maximumCachedRows: Int
    /// Transient DynamoDB errors (throttling, 500s) an entry may meet in as many replays
    /// before it fails for good.
    public let maximumReplayAttempts: Int
    /// The key of the ``OutboxOutcome`` in a ``Foundation/Notification/Name/dynamoStoreOutboxDidReplay``
    /// notification's `userInfo`.
    public static let outcomeKey = "outcome"

    let database: LocalDatabase
    private let subscribers = Mutex<[UInt64: AsyncStream<OutboxOutcome>.Continuation]>([:])
    private let nextSubscriber = Atomic<UInt64>(0)
    let replaying = Mutex(false)

    /// Opens (or creates) the file.
    ///
    /// - Parameters:
    ///   - path: where the file lives (the app's Application Support or Documents directory).
    ///   - maximumCachedRows: the cache bound (default 10,000 rows).
    ///   - maximumReplayAttempts: transient errors an entry may meet before it fails (default 10).
    /// - Throws: when the file cannot be opened or created.
    public init(path: String, maximumCachedRows: Int = 10_000, maximumReplayAttempts: Int = 10) throws {
        self.path = path
        self.maximumCachedRows = maximumCachedRows
        self.maximumReplayAttempts = maximumReplayAttempts
        database = try LocalDatabase(path: path)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS cached_rows(tbl TEXT NOT NULL, key TEXT NOT NULL, item TEXT, used INTEGER NOT NULL, PRIMARY KEY (tbl, key));
            CREATE INDEX IF NOT EXISTS cached_rows_used ON cached_rows(used);
            CREATE TABLE IF NOT EXISTS outbox(seq INTEGER PRIMARY KEY AUTOINCREMENT, token TEXT NOT NULL, policy TEXT NOT NULL, records TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS outbox_keys(seq INTEGER NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, image TEXT, PRIMARY KEY (tbl, key, seq));
            CREATE TABLE IF NOT EXISTS outbox_deltas(seq INTEGER NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, links TEXT NOT NULL, PRIMARY KEY (tbl, key, seq));
            CREATE TABLE IF NOT EXISTS replayed(tbl TEXT NOT NULL, key TEXT NOT NULL, after TEXT, result TEXT, seq INTEGER NOT NULL, PRIMARY KEY (tbl, key));
            CREATE TABLE IF NOT EXISTS failed(seq INTEGER PRIMARY KEY, records TEXT NOT NULL, error TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS outbox_conflicts(seq INTEGER NOT NULL, entity TEXT NOT NULL, key TEXT NOT NULL, item TEXT, PRIMARY KEY (seq, entity, key));
            CREATE TABLE IF NOT EXISTS counters(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            """)
    }

    // MARK: - What the app sees

    /// The saves waiting to be stored, in save order.
    ///
    /// - Throws: when the file cannot be read.
    public func pendingEntries() throws -> [OutboxEntry] {
        try database.rows("SELECT seq, policy, records, attempts FROM outbox ORDER BY seq").map { row in
            OutboxEntry(
                sequence: row[0].integer ?? 0, objectIDs: try Self.objectIDs(row[2].text ?? "[]"),
                mergePolicy: MergePolicy(storedName: row[1].text ?? "") ?? .error, attempts: Int(row[3].integer ?? 0))
        }
    }

    /// The saves that can never succeed, in save order.
    ///
    /// - Throws: when the file cannot be read.
    public func failedEntries() throws -> [FailedOutboxEntry] {
        try database.rows("SELECT seq, records, error FROM failed ORDER BY seq").map { row in
            FailedOutboxEntry(sequence: row[0].integer ?? 0, objectIDs: try Self.objectIDs(row[1].text ?? "[]"), error: row[2].text ?? "")
        }
    }

    /// Forgets a failed entry (after the app showed it).
    ///
    /// - Parameter sequence: the entry's ``FailedOutboxEntry/sequence``.
    /// - Throws: when the file cannot be written.
    public func discardFailedEntry(_ sequence: Int64) throws {
        _ = try database.rows("DELETE FROM failed WHERE seq = ?", [.integer(sequence)])
    }

    /// How many rows the cache holds (not counting the tombstones of rows found gone, which
    /// count toward ``maximumCachedRows`` too).
    ///
    /// - Throws: when the file cannot be read.
    public func cachedRowCount() throws -> Int {
        Int(try database.rows("SELECT count(*) FROM cached_rows WHERE item IS NOT NULL").first?.first?.integer ?? 0)
    }

    /// The outcome of every outbox entry replayed from now on, one value per entry; the
    /// stream ends when the consuming task stops iterating.
    public func outcomes() -> AsyncStream<OutboxOutcome> {
        let (stream, continuation) = AsyncStream<OutboxOutcome>.makeStream()
        let token = nextSubscriber.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[token] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: token) }
        }
        return stream
    }

    /// Tells subscribers and the notification center about a replayed entry.
    func announce(_ outcome: OutboxOutcome) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(outcome) }
        NotificationCenter.default.post(name: .dynamoStoreOutboxDidReplay, object: self, userInfo: [Self.outcomeKey: outcome])
    }

    private static func objectIDs(_ text: String) throws -> [ObjectID] {
        try ItemText.records(text).map { ObjectID(entityName: $0.entity, key: try ItemText.decode($0.key)) }
    }

    // MARK: - The local view

    /// What the device knows of one row.
    enum LocalRow {
        /// A pending save's image: the item it makes, or `nil` when it deletes the row.
        case pending(Item?)
        /// The row as last read from (or stored in) DynamoDB; `nil`: found gone (a tombstone).
        case cached(Item?)
        /// Nothing.
        case unknown
    }

    /// The device's view of rows: the latest outbox image of each, else the cached row.
    func localRows(table: String, keys: [Item]) throws -> [LocalRow] {
        try database.transaction { transaction in
            let used = try Self.nextUse(transaction)
            return try keys.map { key -> LocalRow in
                let text = ItemText.key(key)
                let pending = try transaction.rows(
                    "SELECT image FROM outbox_keys WHERE tbl = ? AND key = ? ORDER BY seq DESC LIMIT 1", [.text(table), .text(text)])
                if let image = pending.first?.first { return .pending(try image.text.map(ItemText.decode)) }
                let cached = try transaction.rows("SELECT item FROM cached_rows WHERE tbl = ? AND key = ?", [.text(table), .text(text)])
                guard let item = cached.first?.first else { return .unknown }
                try transaction.rows("UPDATE cached_rows SET used = ? WHERE tbl = ? AND key = ?", [.integer(used), .text(table), .text(text)])
                return .cached(try item.text.map(ItemText.decode))
            }
        }
    }

    /// Every cached row of a table (not overlaid with the outbox).
    func cachedItems(table: String) throws -> [Item] {
        let rows = try database.rows("SELECT item FROM cached_rows WHERE tbl = ? AND item IS NOT NULL", [.text(table)])
        return try rows.compactMap { try $0[0].text.map(ItemText.decode) }
    }

    /// The latest outbox image of every row of a table that has one (`nil`: deleted), by key text.
    func pendingImages(table: String) throws -> [String: Item?] {
        var images: [String: Item?] = [:]
        for row in try database.rows("SELECT key, image FROM outbox_keys WHERE tbl = ? ORDER BY seq", [.text(table)]) {
            guard let key = row[0].text else { continue }
            images[key] = .some(try row[1].text.map(ItemText.decode))
        }
        return images
    }

    /// The relationship changes of pending saves that changed rows of a table without reading
    /// them (``OutboxRecord/Kind/delta``), in save order, by key text.
    func pendingDeltas(table: String) throws -> [String: [[String: [String: Bool]]]] {
        var deltas: [String: [[String: [String: Bool]]]] = [:]
        for row in try database.rows("SELECT key, links FROM outbox_deltas WHERE tbl = ? ORDER BY seq", [.text(table)]) {
            guard let key = row[0].text, let links = row[1].text else { continue }
            deltas[key, default: []].append(try JSONDecoder().decode([String: [String: Bool]].self, from: Data(links.utf8)))
        }
        return deltas
    }

    /// Stores rows read from DynamoDB (and tombstones of rows found gone), then evicts past the
    /// bound.
    func remember(table: String, items: [Item], keyNames: [String], gone: [Item] = []) throws {
        guard !items.isEmpty || !gone.isEmpty else { return }
        try database.transaction { transaction in
            let used = try Self.nextUse(transaction)
            for item in items {
                let key = item.filter { keyNames.contains($0.key) }
                try transaction.rows(
                    "INSERT INTO cached_rows(tbl, key, item, used) VALUES (?, ?, ?, ?) ON CONFLICT(tbl, key) DO UPDATE SET item = excluded.item, used = excluded.used",
                    [.text(table), .text(ItemText.key(key)), .text(ItemText.item(item)), .integer(used)])
            }
            for key in gone {
                try transaction.rows(
                    "INSERT INTO cached_rows(tbl, key, item, used) VALUES (?, ?, NULL, ?) ON CONFLICT(tbl, key) DO UPDATE SET item = NULL, used = excluded.used",
                    [.text(table), .text(ItemText.key(key)), .integer(used)])
            }
            try evict(transaction)
        }
    }

    /// Evicts the least recently used rows no outbox entry names, down to the bound.
    private func evict(_ transaction: LocalDatabase.Transaction) throws {
        let count = try transaction.rows("SELECT count(*) FROM cached_rows").first?.first?.integer ?? 0
        guard count > maximumCachedRows else { return }
        try transaction.rows(
            """
            DELETE FROM cached_rows WHERE rowid IN (SELECT rowid FROM cached_rows c WHERE NOT EXISTS
            (SELECT 1 FROM outbox_keys o WHERE o.tbl = c.tbl AND o.key = c.key) AND NOT EXISTS
            (SELECT 1 FROM outbox_deltas d WHERE d.tbl = c.tbl AND d.key = c.key) ORDER BY used LIMIT ?)
            """, [.integer(count - Int64(maximumCachedRows))])
    }

    /// The cached rows of keys of one table, by key (`nil` for a tombstone; keys not cached
    /// are left out).
    func cachedRows(table: String, keys: [Item]) throws -> [Item: Item?] {
        try database.transaction { transaction in
            var rows: [Item: Item?] = [:]
            for key in keys {
                let found = try transaction.rows("SELECT item FROM cached_rows WHERE tbl = ? AND key = ?", [.text(table), .text(ItemText.key(key))])
                if let item = found.first?.first { rows[key] = .some(try item.text.map(ItemText.decode)) }
            }
            return rows
        }
    }

    /// Every cached row's table and key (for a refresh).
    func cachedKeys() throws -> [(table: String, key: Item)] {
        try database.rows("SELECT tbl, key FROM cached_rows WHERE item IS NOT NULL ORDER BY tbl, key").compactMap { row in
            guard let table = row[0].text, let key = row[1].text else { return nil }
            return (table, try ItemText.decode(key))
        }
    }

    private static func nextUse(_ transaction: LocalDatabase.Transaction) throws -> Int64 {
        try transaction.rows("INSERT INTO counters(name, value) VALUES ('use', 1) ON CONFLICT(name) DO UPDATE SET value = value + 1")
        return try transaction.rows("SELECT value FROM counters WHERE name = 'use'").first?.first?.integer ?? 0
    }

    // MARK: - The outbox

    /// One outbox entry as the replay reads it.
    struct StoredEntry {
        var sequence: Int64
        var token: String
        var policy: MergePolicy
        var records: [OutboxRecord]
        var attempts: Int
    }

    /// Commits a save: its entry and the images its rows now have, in one fsync'd transaction.
    /// Each record's `readFromOutbox` is set here, under the same lock as the replays' commits.
    func commit(_ records: [OutboxRecord], tables: [String: String], policy: MergePolicy) throws {
        try database.transaction(durable: true) { transaction in
            var records = records
            for index in records.indices {
                let record = records[index]
                guard let table = tables[record.entity] else { continue }
                let arguments: [LocalDatabase.Value] = [.text(table), .text(record.key)]
                let latest = try transaction.rows("SELECT image FROM outbox_keys WHERE tbl = ? AND key = ? ORDER BY seq DESC LIMIT 1", arguments)
                if let image = latest.first?.first {
                    // Only a context that read the latest pending image continues from it; one
                    // that read the row before that save conflicts with it, as online.
                    let read = try record.read.map(ItemText.decode), pending = try image.text.map(ItemText.decode)
                    records[index].readFromOutbox = read != nil && read == pending
                } else if record.read != nil,
                    try !transaction.rows("SELECT 1 FROM outbox_deltas WHERE tbl = ? AND key = ? LIMIT 1", arguments).isEmpty
                {
                    // The context read the row with a pending delta applied: it continues from
                    // what that delta's replay stores.
                    records[index].readFromOutbox = true
                } else if let replayed = try transaction.rows("SELECT after, result FROM replayed WHERE tbl = ? AND key = ?", arguments).first,
                    let after = replayed[0].text, let read = record.read, try ItemText.decode(after) == ItemText.decode(read)
                {
                    // The context read what an entry wrote before its replay stored something
                    // else (a merge): it continues from what the replay stored.
                    records[index].read = replayed[1].text
                    records[index].readRaw = nil
                }
            }
            let token = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
            try transaction.rows(
                "INSERT INTO outbox(token, policy, records) VALUES (?, ?, ?)",
                [.text(String(token)), .text(policy.storedName), .text(try ItemText.records(records))])
            let sequence = try transaction.rows("SELECT last_insert_rowid()").first?.first?.integer ?? 0
            for record in records where record.kind != .check {
                guard let table = tables[record.entity] else { continue }
                if record.kind == .delta, let links = record.links {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys
                    try transaction.rows(
                        "INSERT OR REPLACE INTO outbox_deltas(seq, tbl, key, links) VALUES (?, ?, ?, ?)",
                        [.integer(sequence), .text(table), .text(record.key), .text(String(decoding: try encoder.encode(links), as: UTF8.self))])
                    continue
                }
                try transaction.rows(
                    "INSERT OR REPLACE INTO outbox_keys(seq, tbl, key, image) VALUES (?, ?, ?, ?)",
                    [.integer(sequence), .text(table), .text(record.key), record.after.map { .text($0) } ?? .null])
            }
        }
    }

    /// The oldest entry, if any.
    func firstEntry() throws -> StoredEntry? {
        guard let row = try database.rows("SELECT seq, token, policy, records, attempts FROM outbox ORDER BY seq LIMIT 1").first else { return nil }
        return StoredEntry(
            sequence: row[0].integer ?? 0, token: row[1].text ?? "", policy: MergePolicy(storedName: row[2].text ?? "") ?? .error,
            records: try ItemText.records(row[3].text ?? "[]"), attempts: Int(row[4].integer ?? 0))
    }

    /// Keeps the rows an entry's replay met at its objects' first conflicts (`nil`: the row was
    /// gone), fsync'd before the replay resolves them and sends the resolved writes: a replay
    /// after a lost answer or a kill resolves against the same rows, so it plans the very
    /// writes the earlier one sent (answered from their request tokens) and reports the same
    /// resolutions.
    func recordConflicts(of entry: StoredEntry, _ rows: [ObjectID: Item?]) throws {
        try database.transaction(durable: true) { transaction in
            for (id, row) in rows {
                try transaction.rows(
                    "INSERT OR IGNORE INTO outbox_conflicts(seq, entity, key, item) VALUES (?, ?, ?, ?)",
                    [.integer(entry.sequence), .text(id.entityName), .text(ItemText.key(id.key)), row.map { .text(ItemText.item($0)) } ?? .null])
            }
        }
    }

    /// The rows earlier replays of an entry met at its objects' first conflicts.
    func conflicts(of entry: StoredEntry) throws -> [ObjectID: Item?] {
        var rows: [ObjectID: Item?] = [:]
        for row in try database.rows("SELECT entity, key, item FROM outbox_conflicts WHERE seq = ?", [.integer(entry.sequence)]) {
            guard let entity = row[0].text, let key = try row[1].text.map(ItemText.decode) else { continue }
            rows[ObjectID(entityName: entity, key: key)] = .some(try row[2].text.map(ItemText.decode))
        }
        return rows
    }

    /// Counts a replay attempt that met a transient error.
    func countAttempt(of entry: StoredEntry) throws {
        _ = try database.rows("UPDATE outbox SET attempts = attempts + 1 WHERE seq = ?", [.integer(entry.sequence)])
    }

    /// Ends an entry, in one transaction: it leaves the outbox (to `failed` with the error when
    /// it failed), the cache takes the rows as stored (`results`, `nil` for a row gone; for a
    /// failed entry, the rows its conflicts showed), and later entries that read its images
    /// read those rows instead (or, for a failed entry's other rows, what it had read).
    func finish(_ entry: StoredEntry, tables: [String: String], results: [String: Item?], failure: String?) throws {
        try database.transaction(durable: true) { transaction in
            try transaction.rows("DELETE FROM outbox WHERE seq = ?", [.integer(entry.sequence)])
            try transaction.rows("DELETE FROM outbox_keys WHERE seq = ?", [.integer(entry.sequence)])
            try transaction.rows("DELETE FROM outbox_deltas WHERE seq = ?", [.integer(entry.sequence)])
            try transaction.rows("DELETE FROM outbox_conflicts WHERE seq = ?", [.integer(entry.sequence)])
            if let failure {
                try transaction.rows(
                    "INSERT OR REPLACE INTO failed(seq, records, error) VALUES (?, ?, ?)",
                    [.integer(entry.sequence), .text(try ItemText.records(entry.records)), .text(failure)])
            }
            let used = try Self.nextUse(transaction)
            var rebased: [String: String?] = [:]
            for record in entry.records where record.kind != .check {
                guard let table = tables[record.entity] else { continue }
                let arguments: [LocalDatabase.Value] = [.text(table), .text(record.key)]
                let result = results[Self.recordKey(record.entity, record.key)]
                let stored: String?
                if let result {
                    stored = result.map(ItemText.item)
                    try transaction.rows(
                        "INSERT INTO cached_rows(tbl, key, item, used) VALUES (?, ?, ?, ?) ON CONFLICT(tbl, key) DO UPDATE SET item = excluded.item, used = excluded.used",
                        arguments + [stored.map { .text($0) } ?? .null, .integer(used)])
                } else if record.kind == .delta {
                    // A delta that failed: what the row is was never known on the device.
                    continue
                } else {
                    stored = record.kind == .insert ? nil : record.read
                }
                if failure == nil {
                    try transaction.rows(
                        "INSERT OR REPLACE INTO replayed(tbl, key, after, result, seq) VALUES (?, ?, ?, ?, ?)",
                        arguments + [record.after.map { .text($0) } ?? .null, stored.map { .text($0) } ?? .null, .integer(entry.sequence)])
                }
                rebased[Self.recordKey(record.entity, record.key)] = .some(stored)
            }
            try transaction.rows("DELETE FROM replayed WHERE seq < ?", [.integer(entry.sequence - 1_000)])
            guard !rebased.isEmpty else { return }
            // Later entries that read this entry's images continue from what it stored.
            for row in try transaction.rows("SELECT seq, records FROM outbox ORDER BY seq") {
                guard let sequence = row[0].integer, var records = try row[1].text.map(ItemText.records) else { continue }
                var changed = false
                for index in records.indices where records[index].readFromOutbox {
                    guard let stored = rebased[Self.recordKey(records[index].entity, records[index].key)] else { continue }
                    records[index].read = stored
                    records[index].readRaw = nil
                    records[index].readFromOutbox = false
                    changed = true
                }
                if changed {
                    try transaction.rows("UPDATE outbox SET records = ? WHERE seq = ?", [.text(try ItemText.records(records)), .integer(sequence)])
                }
                // Only the first later entry of a row read this entry's image.
                for record in records { rebased[Self.recordKey(record.entity, record.key)] = nil }
                if rebased.isEmpty { break }
            }
        }
    }

    /// One row of a record set: its entity and key text.
    static func recordKey(_ entity: String, _ key: String) -> String { entity + "\u{0}" + key }
}
