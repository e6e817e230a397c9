import DynamoEngine
import NIOPosix

extension LocalDynamoServer {
    /// How consistent the server's reads are (`serve --consistency` and its parameters).
    ///
    /// `exact`, the default, answers every read with the last committed write. `service`
    /// behaves as the developer guide describes DynamoDB, on the server's clock and drawn from
    /// ``seed``: an eventually consistent read (GetItem, BatchGetItem, Query, Scan, a PartiQL
    /// SELECT without `ConsistentRead`) may answer an item's previous version for up to
    /// ``window`` seconds after a write (for ``staleProbability`` of the writes); a global
    /// secondary index shows a write after a delay of up to ``window``; stream records are
    /// readable, and Kinesis destination records sent, after up to ``window``; TTL deletes items up to ``ttlDelay`` seconds after
    /// they expire; CREATING, UPDATING and DELETING last ``statusDelay`` seconds. Strongly
    /// consistent reads, transactions and conditions are always exact.
    /// `POST /_localdynamo/consistency/settle` makes everything pending visible at once.
    ///
    /// ```swift
    /// var configuration = LocalDynamoServer.Configuration()
    /// configuration.consistency = .init(mode: .service, seed: 42)
    /// ```
    public struct Consistency: Sendable, Equatable {
        /// `exact` or `service`.
        public enum Mode: String, Sendable, CaseIterable {
            /// Every read sees the last write at once.
            case exact
            /// Reads lag writes as in DynamoDB.
            case service
        }

        public var mode: Mode
        /// The seed of every draw: the same seed and the same writes give the same answers.
        public var seed: UInt64
        /// The share of writes an eventually consistent read may not see yet (0…1; 0.5).
        public var staleProbability: Double
        /// The longest lag, in seconds, of a stale read, an index entry or a stream record (1).
        public var window: Double
        /// The longest delay, in seconds, of a TTL deletion past the item's expiry (60).
        public var ttlDelay: Double
        /// Seconds a status in transition stays visible (5), unless
        /// ``Configuration/transientStatusDelay`` is set.
        public var statusDelay: Double

        /// - Parameters:
        ///   - mode: `exact` (the default) or `service`.
        ///   - seed: the draws' seed.
        ///   - staleProbability: see ``staleProbability``; `nil` for the default.
        ///   - window: see ``window``; `nil` for the default.
        ///   - ttlDelay: see ``ttlDelay``; `nil` for the default.
        ///   - statusDelay: see ``statusDelay``; `nil` for the default.
        public init(
            mode: Mode = .exact, seed: UInt64 = 0, staleProbability: Double? = nil, window: Double? = nil,
            ttlDelay: Double? = nil, statusDelay: Double? = nil
        ) {
            self.mode = mode
            self.seed = seed
            self.staleProbability = staleProbability ?? ConsistencySettings.defaultStaleProbability
            self.window = window ?? ConsistencySettings.defaultWindow
            self.ttlDelay = ttlDelay ?? ConsistencySettings.defaultTTLDelay
            self.statusDelay = statusDelay ?? ConsistencySettings.defaultStatusDelay
        }

        /// The engine's form.
        var settings: ConsistencySettings {
            ConsistencySettings(
                mode: mode == .service ? .service : .exact, seed: seed, staleProbability: staleProbability,
                window: window, ttlDelay: ttlDelay, statusDelay: statusDelay)
        }
    }
}

extension LocalDynamoServer {
    /// Makes everything the consistency model holds back visible at once, in every namespace
    /// (what `POST /_localdynamo/consistency/settle` does): item versions, index entries,
    /// stream and Kinesis destination records, statuses in transition, and TTL deletions of the items expired by now.
    ///
    /// - Returns: the item versions that were pending.
    @discardableResult
    public func settleConsistency() async throws -> Int {
        let engine = engine
        return try await threadPool.runIfActive { try engine.settleConsistency().versions }
    }

    /// Sets the consistency mode of one table in every namespace that holds it, or of every
    /// namespace when `table` is `nil` (what `POST /_localdynamo/consistency` does);
    /// `mode == nil` sends the table back to its namespace's mode.
    public func setConsistency(_ mode: Consistency.Mode?, table: String? = nil) {
        engine.setConsistency(mode.map { $0 == .service ? .service : .exact }, namespace: nil, table: table)
    }

    /// Moves the server's clock forward by `seconds` (what `POST /_localdynamo/clock` does):
    /// delays of the consistency model end as the clock passes them.
    public func advanceClock(by seconds: Double) throws {
        try engine.clock.advance(by: seconds)
    }
}
