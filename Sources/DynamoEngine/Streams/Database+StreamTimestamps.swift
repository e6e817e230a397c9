import DynamoAPI

/// GetShardIterator's `AT_TIMESTAMP`: the first record of the shard whose
/// `ApproximateCreationDateTime` is at or after the request's `Timestamp`.
///
/// The two sides have different precisions, and the comparison is made between the values a
/// client sees: a record's `ApproximateCreationDateTime` is its creation time on the server
/// clock rounded down to the second (``StoredStreamRecord``, as DynamoDB reports it), and the
/// `Timestamp` counts to the millisecond ("the Unix epoch date with precision in milliseconds",
/// the API reference). So `Timestamp` 1767225600.480 starts at the first record of second
/// 1767225601, and 1767225600.000 (or 1767225600.0004) at the first record of second
/// 1767225600. The milliseconds are taken from the decimal the client sent, not from a
/// `Double` multiplied and truncated (1767225600.123 × 1000 is 1767225600122.9998 as a
/// `Double`): the seconds are first rounded to the microsecond, the finest fraction SDKs send.
enum StreamTimestamps {
    /// The milliseconds since 1970 of an AT_TIMESTAMP `Timestamp`, clamped to what an `Int64`
    /// holds (a time far outside it is in the future or before any trim horizon either way).
    static func millis(of timestamp: Timestamp) -> Int64 {
        let micros = (timestamp.secondsSince1970 * 1_000_000).rounded()
        guard micros.magnitude < 9.0e18 else { return micros > 0 ? .max : .min }
        let whole = Int64(micros)
        // Truncated towards earlier times, also before 1970.
        return whole >= 0 ? whole / 1000 : -((-whole + 999) / 1000)
    }

    /// The first whole second at or after `millis`: a record created at `t` has an
    /// `ApproximateCreationDateTime` at or after `millis` exactly when `t` is at or after it.
    static func firstSecond(atOrAfter millis: Int64) -> Int64 {
        millis >= 0 ? (millis + 999) / 1000 : -((-millis) / 1000)
    }

    /// The first record of a shard's range of sequence numbers created after the trim horizon and
    /// at or after a time: one range of the records' primary key.
    static let positionSQL = """
        SELECT sequence FROM stream_records
        WHERE stream_id = ? AND sequence >= ? AND sequence <= ? AND shard = ? AND created > ? AND created >= ?
        ORDER BY sequence LIMIT 1
        """

    /// The server clock in milliseconds, truncated.
    static func nowMillis(_ now: Double) -> Int64 {
        Int64((now * 1000).rounded(.down))
    }
}

extension Database {
    /// The `Timestamp` rules of GetShardIterator, checked before the stream is looked up: an
    /// AT_TIMESTAMP iterator needs one that is not after the server clock, no other type takes
    /// one. Returns the timestamp's milliseconds for AT_TIMESTAMP, `nil` otherwise.
    func checkIteratorTimestamp(_ input: StreamsGetShardIteratorInput, now: Double) throws -> Int64? {
        guard input.shardIteratorType == .atTimestamp else {
            if input.timestamp != nil { throw StreamErrors.timestampNotAllowed(input.shardIteratorType.rawValue) }
            return nil
        }
        guard let timestamp = input.timestamp else { throw StreamErrors.timestampRequired() }
        let millis = StreamTimestamps.millis(of: timestamp)
        let nowMillis = StreamTimestamps.nowMillis(now)
        if millis > nowMillis { throw StreamErrors.timestampInFuture(millis: millis, nowMillis: nowMillis) }
        return millis
    }

    /// Where an AT_TIMESTAMP iterator of `shard` starts: the first retained record whose
    /// `ApproximateCreationDateTime` is at or after `millis`; the shard's trim horizon when
    /// `millis` is before it (24 hours before `now`); after the shard's newest record when no
    /// record is that late (a closed shard is then drained by its first GetRecords).
    func timestampPosition(
        millis: Int64, shard: ShardRow, stream: StreamRow, now: Double, connection: SQLiteConnection
    ) throws -> Int64 {
        let end = lastSequence(of: shard, in: stream)
        let horizon = now - StreamNames.retentionSeconds
        let statement = try connection.statement(StreamTimestamps.positionSQL)
        // Before the trim horizon every retained record is the answer, the oldest first.
        let beforeHorizon = millis < StreamTimestamps.nowMillis(horizon)
        let from = beforeHorizon ? -Double.greatestFiniteMagnitude : Double(StreamTimestamps.firstSecond(atOrAfter: millis))
        statement.bind(
            .integer(shard.streamID), .integer(max(shard.firstSequence, shard.trimmedThrough + 1)), .integer(end),
            .integer(shard.number), .real(horizon), .real(from))
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : end + 1
    }
}
