/// How consistent the reads a server answers are (`serve --consistency`).
package enum ConsistencyMode: String, Sendable, CaseIterable, Codable {
    /// Every read sees the last committed write, at once (the default, and LocalDynamo's
    /// behaviour before consistency modes existed).
    case exact
    /// Reads behave as the developer guide describes the service: eventually consistent reads
    /// may answer an item's previous version for a short while, global secondary indexes and
    /// streams lag their writes, TTL deletes some time after expiry, and status transitions take
    /// time (see docs/testing-with-localdynamo.md).
    case service
}

/// The `service` model's parameters: how often and for how long reads lag, drawn from `seed`.
///
/// Every delay is drawn from the seed and what it delays: an item change by its number in the
/// namespace's sequence of changes, a stream record by its stream and sequence number, a TTL
/// deletion by its table, key and expiry. The same seed and the same writes in the same order,
/// at the same times of the server clock, give the same answers.
package struct ConsistencySettings: Sendable, Equatable {
    /// The mode of every namespace and table without an override.
    package var mode: ConsistencyMode
    /// The seed of every draw (`--consistency-seed`).
    package var seed: UInt64
    /// The share of writes after which an eventually consistent read of the table may still
    /// answer the item's previous version (`--consistency-stale-probability`).
    package var staleProbability: Double
    /// Seconds, at most, such a read may lag its write (`--consistency-window`); also the
    /// longest propagation delay of a global secondary index and of a stream record.
    package var window: Double
    /// Seconds, at most, past its expiry before TTL deletes an item (`--consistency-ttl-delay`).
    package var ttlDelay: Double
    /// Seconds CREATING, UPDATING, DELETING, ENABLING and an index backfill stay visible
    /// (DynamoDB Local's `-delayTransientStatuses`), unless the server sets its own.
    package var statusDelay: Double

    /// The documented defaults: 50% of writes readable stale for up to 1 s (the developer guide:
    /// a repeated read sees the write "after a short time"; the knowledge center: writes reach a
    /// GSI "within 1 second"), TTL deletions up to 60 s late (the service: "typically within two days"),
    /// statuses held 5 s (DynamoDB Local's delay).
    package static let defaultStaleProbability = 0.5
    package static let defaultWindow = 1.0
    package static let defaultTTLDelay = 60.0
    package static let defaultStatusDelay = 5.0

    package init(
        mode: ConsistencyMode = .exact, seed: UInt64 = 0,
        staleProbability: Double = Self.defaultStaleProbability, window: Double = Self.defaultWindow,
        ttlDelay: Double = Self.defaultTTLDelay, statusDelay: Double = Self.defaultStatusDelay
    ) {
        self.mode = mode
        self.seed = seed
        self.staleProbability = min(1, max(0, staleProbability))
        self.window = max(0, window)
        self.ttlDelay = max(0, ttlDelay)
        self.statusDelay = max(0, statusDelay)
    }

    /// LocalDynamo's behaviour before consistency modes: everything exact.
    package static let exact = ConsistencySettings()
}
