import DynamoAPI

extension Database {
    /// Items deleted per write transaction by the sweeper: short transactions, so requests
    /// waiting for the writer get it between batches.
    static let sweepBatchSize = 100
    /// Expiry-index entries read per page while looking for expired items.
    static let sweepPageSize = 1000

    /// Deletes every item that has expired (see ``TimeToLiveExpiry``) in the tables with Time to
    /// Live enabled, as DynamoDB's background process does: deletions update indexes, write
    /// REMOVE stream records naming the service, and consume no capacity. Then trims stream
    /// records past retention.
    ///
    /// Reads only the rows due: pages of each table's ``ExpiryIndex`` with an expiry between the
    /// five-year horizon and `now`, never the items that are not due. Runs on the caller's thread
    /// (never an event loop): pages are read off the writer, and each batch of deletions is its
    /// own short write transaction that checks the item again.
    ///
    /// - Returns: how many items were deleted.
    package func sweepExpiredItems() throws -> Int {
        let now = clock.now()
        var deleted = 0
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            guard let attribute = table.expiryAttribute else { continue }
            var after: ExpiryIndex.Entry?
            while true {
                let entries = try dueEntries(of: table, attribute: attribute, now: now, after: after)
                // In `service` mode an item is deleted some time after its expiry (ConsistencyModel.expiryDue).
                let due =
                    consistency.isActive
                    ? entries.filter { consistency.expiryDue(table: table, key: $0.key, expires: $0.expires, now: now) } : entries
                for start in stride(from: 0, to: due.count, by: Self.sweepBatchSize) {
                    let batch = due[start..<min(start + Self.sweepBatchSize, due.count)].map(\.key)
                    deleted += try deleteExpired(table: table, keys: batch, attribute: attribute, now: now)
                }
                guard entries.count == Self.sweepPageSize, let last = entries.last else { break }
                after = last
            }
        }
        try trimStreams(now: now)
        return deleted
    }

    /// A page of the entries of `table`'s expiry index due at `now`; none once the table was
    /// dropped or had TTL turned off since the sweep began.
    private func dueEntries(
        of table: TableDefinition, attribute: String, now: Double,
        after: ExpiryIndex.Entry?
    ) throws -> [ExpiryIndex.Entry] {
        func unchanged() -> Bool {
            let current = cachedDefinition(table.name)
            return current?.storageID == table.storageID && current?.expiryAttribute == attribute
        }
        do {
            return try read { connection in
                guard unchanged() else { return [] }
                return try ExpiryIndex(storageID: table.storageID, connection: connection)
                    .expired(now: now, after: after, limit: Self.sweepPageSize)
            }
        } catch _ where !unchanged() {
            // Dropped between the check and the read: nothing of it is left to sweep.
            return []
        }
    }

    /// Deletes the items of `keys` that are still expired, in one write transaction.
    private func deleteExpired(table: TableDefinition, keys: [StoredKey], attribute: String, now: Double) throws -> Int {
        try write { state in
            // The table may have been dropped, recreated or had TTL turned off meanwhile.
            guard let current = cachedDefinition(table.name), current.storageID == table.storageID,
                current.expiryAttribute == attribute
            else { return 0 }
            let store = try itemStore(current, in: state)
            var count = 0
            for key in keys {
                guard let old = try store.get(key),
                    try TimeToLiveExpiry.isExpired(json: old.json, attribute: attribute, now: now)
                else { continue }
                try store.delete(key)
                try recordChange(&state, table: current, store: store, key: key, old: old, new: nil, origin: .timeToLive)
                count += 1
            }
            return count
        }
    }

    /// Removes stream records older than 24 hours, and streams and shards that stopped taking
    /// records more than 24 hours ago. Readers already treat them as gone; this frees the space.
    ///
    /// Each stream is trimmed from its oldest record on, in sequence order, up to its first
    /// record still within retention (``StreamTrim``): a sweep with nothing to trim reads one
    /// record a stream. (Deleting by `created`, which no index orders, read every record of every
    /// stream on each sweep, every 5 seconds by default, with the writer held: with a few hundred
    /// thousand records that stalled writes for tens of milliseconds each time.)
    func trimStreams(now: Double) throws {
        let cutoff = now - StreamNames.retentionSeconds
        try write { state in
            let connection = state.connection
            var streamIDs: [Int64] = []
            let streams = try connection.statement(StreamTrim.streamsSQL)
            while try streams.step() { streamIDs.append(streams.int64(0)) }
            for id in streamIDs { try StreamTrim.trimRecords(ofStream: id, cutoff: cutoff, connection: connection) }
            try connection.statement("DELETE FROM stream_shards WHERE closed_at IS NOT NULL AND closed_at <= ?")
                .bind(.real(cutoff)).run()
            try connection.statement(
                """
                DELETE FROM stream_shards WHERE stream_id IN (SELECT id FROM streams WHERE ended IS NOT NULL AND ended <= ?)
                """
            ).bind(.real(cutoff)).run()
            try connection.statement("DELETE FROM streams WHERE ended IS NOT NULL AND ended <= ?").bind(.real(cutoff)).run()
        }
    }
}

/// The statements that trim one stream's records past retention, each reading the records by
/// the `(stream_id, sequence)` primary key: only the records trimmed and the first one kept.
enum StreamTrim {
    static let streamsSQL = "SELECT id FROM streams"
    /// The creation time of the stream's oldest record.
    static let oldestSQL = "SELECT created FROM stream_records WHERE stream_id = ? ORDER BY sequence LIMIT 1"
    /// The sequence number of the stream's first record within retention.
    static let firstKeptSQL =
        "SELECT sequence FROM stream_records WHERE stream_id = ? AND created > ? ORDER BY sequence LIMIT 1"
    /// Each shard that holds records before the first kept one remembers the last of them.
    static let markTrimmedSQL = """
        UPDATE stream_shards SET trimmed_through = max(trimmed_through, (
            SELECT max(sequence) FROM stream_records r
            WHERE r.stream_id = ?1 AND r.sequence < ?2 AND r.shard = stream_shards.number))
        WHERE stream_id = ?1 AND EXISTS (
            SELECT 1 FROM stream_records r
            WHERE r.stream_id = ?1 AND r.sequence < ?2 AND r.shard = stream_shards.number)
        """
    static let deleteSQL = "DELETE FROM stream_records WHERE stream_id = ? AND sequence < ?"

    /// Deletes the records of stream `id` from its oldest up to its first record created after
    /// `cutoff` (all of them when there is none), inside the caller's write transaction.
    static func trimRecords(ofStream id: Int64, cutoff: Double, connection: SQLiteConnection) throws {
        let oldest = try connection.statement(oldestSQL).bind(.integer(id))
        defer { oldest.reset() }
        guard try oldest.step(), oldest.double(0) <= cutoff else { return }
        let firstKept = try connection.statement(firstKeptSQL).bind(.integer(id), .real(cutoff))
        defer { firstKept.reset() }
        let end = try firstKept.step() ? firstKept.int64(0) : Int64.max
        try connection.statement(markTrimmedSQL).bind(.integer(id), .integer(end)).run()
        try connection.statement(deleteSQL).bind(.integer(id), .integer(end)).run()
    }
}

extension DynamoEngine {
    /// Runs the TTL sweeper (and stream trimming) in every namespace, opening those stored on
    /// disk that no request has opened since the server started (see ``openStoredNamespaces()``).
    /// - Returns: how many items were deleted.
    package func sweepExpiredItems() throws -> Int {
        try openStoredNamespaces()
        let deleted = try openDatabases.values.reduce(0) { $0 + (try $1.sweepExpiredItems()) }
        counters.countTTLDeletions(deleted)
        return deleted
    }
}
