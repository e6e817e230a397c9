import DynamoAPI

extension Database {
    /// The most bytes of records one GetRecords returns.
    static let recordsPageBytes = 1024 * 1024

    // MARK: GetShardIterator

    /// An iterator at a shard's trim horizon, after its newest record, at / after a sequence
    /// number, or at a time (``timestampPosition(millis:shard:stream:now:connection:)``); valid
    /// for 15 minutes of the server's clock.
    package func getShardIterator(_ input: StreamsGetShardIteratorInput) throws -> StreamsGetShardIteratorOutput {
        let type = input.shardIteratorType
        let bySequence = type == .atSequenceNumber || type == .afterSequenceNumber
        if bySequence, input.sequenceNumber == nil { throw StreamErrors.sequenceNumberRequired(type.rawValue) }
        if !bySequence, input.sequenceNumber != nil { throw StreamErrors.sequenceNumberNotAllowed(type.rawValue) }
        let now = clock.now()
        let timestampMillis = try checkIteratorTimestamp(input, now: now)
        return try read { connection in
            try connection.readTransaction {
                let stream = try visibleStream(input.streamArn, now: now, connection: connection)
                guard
                    let shard = try StreamCatalog.shards(of: stream.id, connection: connection)
                        .first(where: { $0.shardID == input.shardId && $0.isVisible(at: now) })
                else { throw StreamErrors.shardNotFound() }
                let end = lastSequence(of: shard, in: stream)
                let position: Int64
                switch type {
                case .trimHorizon:
                    position = try firstRetainedSequence(of: shard, now: now, connection: connection) ?? end + 1
                case .latest:
                    position = end + 1
                case .atTimestamp:
                    position = try timestampPosition(
                        millis: timestampMillis ?? 0, shard: shard, stream: stream, now: now, connection: connection)
                default:
                    let text = input.sequenceNumber ?? ""
                    guard let value = StreamNames.parseSequenceNumber(text), value >= shard.firstSequence, value <= end else {
                        throw StreamErrors.invalidSequenceNumber(text, shard: shard.shardID)
                    }
                    if try isTrimmed(at: value, in: shard, now: now, connection: connection) { throw StreamErrors.trimmed() }
                    position = type == .atSequenceNumber ? value : value + 1
                }
                let iterator = ShardIterator(
                    streamARN: arn(of: stream), shardNumber: shard.number, position: position,
                    issuedMillis: Int64((now * 1000).rounded(.down)))
                return StreamsGetShardIteratorOutput(shardIterator: iterator.encoded(key: iteratorKey, streamSecret: stream.secret))
            }
        }
    }

    // MARK: GetRecords

    /// Up to `Limit` (at most 1,000) records, at most 1 MB, from an iterator's position, and the
    /// iterator after them (none once a closed shard is drained).
    package func getRecords(_ input: StreamsGetRecordsInput) throws -> StreamsGetRecordsOutput {
        let now = clock.now()
        guard let (iterator, mac) = ShardIterator.parse(input.shardIterator),
            let parsed = StreamNames.parseStreamARN(iterator.streamARN), parsed.region == region
        else { throw StreamErrors.invalidIterator() }
        return try read { connection in
            try connection.readTransaction {
                guard let stream = try StreamCatalog.stream(table: parsed.table, label: parsed.label, connection: connection),
                    iterator.streamARN == arn(of: stream), iterator.verify(mac, key: iteratorKey, streamSecret: stream.secret)
                else { throw StreamErrors.invalidIterator() }
                let issued = Double(iterator.issuedMillis) / 1000
                if now - issued > StreamNames.iteratorLifetimeSeconds { throw StreamErrors.expired(issued: issued, now: now) }
                let limit = input.limit ?? 1000
                if limit > 1000 { throw StreamErrors.recordLimit(limit) }
                guard stream.isVisible(at: now),
                    let shard = try StreamCatalog.shards(of: stream.id, connection: connection)
                        .first(where: { $0.number == iterator.shardNumber }), shard.isVisible(at: now)
                else { throw StreamErrors.shardOfIteratorGone() }
                if try isTrimmed(at: iterator.position, in: shard, now: now, connection: connection) {
                    throw StreamErrors.trimmed()
                }
                let statement = try connection.statement(
                    """
                    SELECT sequence, record, created FROM stream_records
                    WHERE stream_id = ? AND shard = ? AND sequence >= ? ORDER BY sequence LIMIT ?
                    """)
                statement.bind(.integer(stream.id), .integer(shard.number), .integer(iterator.position), .integer(Int64(limit + 1)))
                var records: [StreamsRecord] = []
                var bytes = 0
                var next = iterator.position
                var more = false
                let delayed = consistency.isActive
                while try statement.step() {
                    let blob = statement.blob(1)
                    let size = StoredStreamRecord.pageBytes(of: blob)
                    if records.count == limit || (!records.isEmpty && bytes + size > Self.recordsPageBytes) {
                        more = true
                        break
                    }
                    let sequence = statement.int64(0)
                    // In `service` mode a record is readable after its delay; those after it wait with it.
                    if delayed,
                        !consistency.streamRecordReadable(
                            table: stream.tableName, streamID: stream.id, sequence: sequence, created: statement.double(2), now: now)
                    {
                        more = true
                        break
                    }
                    records.append(
                        try StoredStreamRecord.record(
                            blob: blob, sequence: sequence, created: statement.double(2), stream: stream, region: region))
                    bytes += size
                    next = sequence + 1
                }
                statement.reset()
                // A closed shard takes no more records: once nothing is left after this page, it is drained.
                let drained = shard.closedAt != nil && !more
                var following = iterator
                following.position = next
                following.issuedMillis = Int64((now * 1000).rounded(.down))
                return StreamsGetRecordsOutput(
                    records: records,
                    nextShardIterator: drained ? nil : following.encoded(key: iteratorKey, streamSecret: stream.secret))
            }
        }
    }

    // MARK: Positions

    /// The sequence number of the shard's newest record (one before its first when it has none).
    func lastSequence(of shard: ShardRow, in stream: StreamRow) -> Int64 {
        if shard.closedAt != nil { return shard.lastSequence ?? shard.firstSequence - 1 }
        return stream.nextSequence - 1
    }

    /// The oldest record of the shard still within the retention period.
    private func firstRetainedSequence(of shard: ShardRow, now: Double, connection: SQLiteConnection) throws -> Int64? {
        let statement = try connection.statement(
            """
            SELECT sequence FROM stream_records WHERE stream_id = ? AND shard = ? AND sequence > ? AND created > ?
            ORDER BY sequence LIMIT 1
            """)
        statement.bind(
            .integer(shard.streamID), .integer(shard.number), .integer(shard.trimmedThrough),
            .real(now - StreamNames.retentionSeconds))
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Whether reading at `position` would start in trimmed data: the record there (or the first
    /// one after it) is past retention or already removed.
    private func isTrimmed(at position: Int64, in shard: ShardRow, now: Double, connection: SQLiteConnection) throws -> Bool {
        if position <= shard.trimmedThrough { return true }
        let statement = try connection.statement(
            """
            SELECT created FROM stream_records WHERE stream_id = ? AND shard = ? AND sequence >= ? ORDER BY sequence LIMIT 1
            """)
        statement.bind(.integer(shard.streamID), .integer(shard.number), .integer(position))
        defer { statement.reset() }
        guard try statement.step() else { return false }
        return statement.double(0) <= now - StreamNames.retentionSeconds
    }
}
