import DynamoAPI

extension Database {
    /// Items deleted per write transaction by the sweeper: short transactions, so requests
    /// waiting for the writer get it between batches.
    static let sweepBatchSize = 100
    /// Rows read per page while looking for expired items.
    static let sweepPageSize = 1000

    /// Deletes every item that has expired (see ``TimeToLiveExpiry``) in the tables with Time to
    /// Live enabled, as DynamoDB's background process does: deletions update indexes, write
    /// REMOVE stream records naming the service, and consume no capacity. Then trims stream
    /// records past retention.
    ///
    /// Runs on the caller's thread (never an event loop): pages are read off the writer, and
    /// each batch of deletions is its own short write transaction that checks the item again.
    ///
    /// - Returns: how many items were deleted.
    package func sweepExpiredItems() throws -> Int {
        let now = clock.now()
        var deleted = 0
        for table in tables.values.sorted(by: { $0.name < $1.name }) where table.ttlEnabled {
            guard let attribute = table.ttlAttribute else { continue }
            var after: StoredKey?
            while true {
                let rows = try read { connection in
                    try ItemStore(table: table, connection: connection)
                        .scan(lowHash: Int64.min, highHash: Int64.max, after: after, limit: Self.sweepPageSize)
                }
                let expired = try rows.filter { try TimeToLiveExpiry.isExpired(json: $0.json, attribute: attribute, now: now) }
                for start in stride(from: 0, to: expired.count, by: Self.sweepBatchSize) {
                    let batch = expired[start..<min(start + Self.sweepBatchSize, expired.count)].map(\.key)
                    deleted += try deleteExpired(table: table, keys: batch, attribute: attribute, now: now)
                }
                guard rows.count == Self.sweepPageSize, let last = rows.last else { break }
                after = last.key
            }
        }
        try trimStreams(now: now)
        return deleted
    }

    /// Deletes the items of `keys` that are still expired, in one write transaction.
    private func deleteExpired(table: TableDefinition, keys: [StoredKey], attribute: String, now: Double) throws -> Int {
        try write { state in
            // The table may have been dropped, recreated or had TTL turned off meanwhile.
            guard let current = cachedDefinition(table.name), current.storageID == table.storageID,
                  current.ttlEnabled, current.ttlAttribute == attribute else { return 0 }
            let store = itemStore(current, connection: state.connection)
            var count = 0
            for key in keys {
                guard let old = try store.get(key),
                      try TimeToLiveExpiry.isExpired(json: old.json, attribute: attribute, now: now) else { continue }
                try store.delete(key)
                try recordChange(&state, table: current, store: store, key: key, old: old, new: nil, origin: .timeToLive)
                count += 1
            }
            return count
        }
    }

    /// Removes stream records older than 24 hours, and streams and shards that stopped taking
    /// records more than 24 hours ago. Readers already treat them as gone; this frees the space.
    func trimStreams(now: Double) throws {
        let cutoff = now - StreamNames.retentionSeconds
        try write { state in
            let connection = state.connection
            try connection.statement("""
                UPDATE stream_shards SET trimmed_through = (
                    SELECT max(sequence) FROM stream_records r
                    WHERE r.stream_id = stream_shards.stream_id AND r.shard = stream_shards.number AND r.created <= ?)
                WHERE EXISTS (
                    SELECT 1 FROM stream_records r
                    WHERE r.stream_id = stream_shards.stream_id AND r.shard = stream_shards.number AND r.created <= ?)
                """).bind(.real(cutoff), .real(cutoff)).run()
            try connection.statement("DELETE FROM stream_records WHERE created <= ?").bind(.real(cutoff)).run()
            try connection.statement("DELETE FROM stream_shards WHERE closed_at IS NOT NULL AND closed_at <= ?")
                .bind(.real(cutoff)).run()
            try connection.statement("""
                DELETE FROM stream_shards WHERE stream_id IN (SELECT id FROM streams WHERE ended IS NOT NULL AND ended <= ?)
                """).bind(.real(cutoff)).run()
            try connection.statement("DELETE FROM streams WHERE ended IS NOT NULL AND ended <= ?").bind(.real(cutoff)).run()
        }
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
