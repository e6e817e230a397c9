import DynamoAPI

extension Database {
    // MARK: ListStreams

    /// The namespace's readable streams, newest first, optionally of one table; pages of
    /// `Limit` (at most 100: the generated validation refuses more, as DynamoDB does) after
    /// `ExclusiveStartStreamArn` (a malformed one is a ValidationException, an unknown one
    /// ResourceNotFoundException).
    package func listStreams(_ input: StreamsListStreamsInput) throws -> StreamsListStreamsOutput {
        if let exclusive = input.exclusiveStartStreamArn, StreamNames.parseStreamARN(exclusive) == nil {
            throw StreamErrors.invalidStreamARN()
        }
        let now = clock.now()
        let rows = try read { connection in
            try StreamCatalog.streams(table: input.tableName, connection: connection)
        }.filter { $0.isVisible(at: now) }
        if let name = input.tableName, rows.isEmpty, cachedDefinition(name) == nil {
            throw StreamErrors.tableNotFound(name)
        }
        var start = rows.startIndex
        if let exclusive = input.exclusiveStartStreamArn {
            guard let position = rows.firstIndex(where: { arn(of: $0) == exclusive }) else {
                throw StreamErrors.streamNotFound(exclusive)
            }
            start = position + 1
        }
        let page = rows[start...].prefix(input.limit ?? 100)
        let more = start + page.count < rows.count
        return StreamsListStreamsOutput(
            streams: page.map { StreamsStream(streamArn: arn(of: $0), tableName: $0.tableName, streamLabel: $0.label) },
            lastEvaluatedStreamArn: more ? page.last.map(arn(of:)) : nil)
    }

    // MARK: DescribeStream

    /// A stream's status, view type, key schema and shards (`Limit` at most 100 after
    /// `ExclusiveStartShardId`, or the children of one shard with `ShardFilter`).
    package func describeStream(_ input: StreamsDescribeStreamInput) throws -> StreamsDescribeStreamOutput {
        let now = clock.now()
        let (stream, shards) = try read { connection in
            let stream = try visibleStream(input.streamArn, now: now, connection: connection)
            return (stream, try StreamCatalog.shards(of: stream.id, connection: connection))
        }
        var listed = shards.filter { $0.isVisible(at: now) }
        if let filter = input.shardFilter, filter.type == .childShards, let parent = filter.shardId {
            listed = listed.filter { $0.parentShardID == parent }
        }
        if let exclusive = input.exclusiveStartShardId {
            if let position = listed.firstIndex(where: { $0.shardID == exclusive }) {
                listed = Array(listed[(position + 1)...])
            } else {
                listed = []
            }
        }
        let limit = min(input.limit ?? 100, 100)
        let page = Array(listed.prefix(limit))
        var keySchema = [KeySchemaElement(attributeName: stream.partitionKey, keyType: .hash)]
        if let sortKey = stream.sortKey { keySchema.append(KeySchemaElement(attributeName: sortKey, keyType: .range)) }
        let description = StreamsStreamDescription(
            streamArn: arn(of: stream), streamLabel: stream.label,
            streamStatus: stream.ended == nil ? .enabled : .disabled,
            streamViewType: StreamViewType(rawValue: stream.viewType),
            creationRequestDateTime: Timestamp(secondsSince1970: stream.created),
            tableName: stream.tableName, keySchema: keySchema,
            shards: page.map { shard in
                StreamsShard(
                    shardId: shard.shardID,
                    sequenceNumberRange: StreamsSequenceNumberRange(
                        startingSequenceNumber: StreamNames.sequenceNumber(shard.firstSequence),
                        endingSequenceNumber: shard.lastSequence.map(StreamNames.sequenceNumber)),
                    parentShardId: shard.parentShardID)
            },
            lastEvaluatedShardId: listed.count > page.count ? page.last?.shardID : nil)
        return StreamsDescribeStreamOutput(streamDescription: description)
    }

    // MARK: Helpers

    func arn(of stream: StreamRow) -> String {
        StreamNames.streamARN(region: region, table: stream.tableName, label: stream.label)
    }

    /// The stream an ARN names, while it is readable.
    func visibleStream(_ arn: String, now: Double, connection: SQLiteConnection) throws -> StreamRow {
        guard let parsed = StreamNames.parseStreamARN(arn) else { throw StreamErrors.invalidStreamARN() }
        guard parsed.region == region, arn == StreamNames.streamARN(region: region, table: parsed.table, label: parsed.label),
            let stream = try StreamCatalog.stream(table: parsed.table, label: parsed.label, connection: connection),
            stream.isVisible(at: now)
        else { throw StreamErrors.streamNotFound(arn) }
        return stream
    }
}
