import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns a write's item changes into stream records, inside the write's transaction (one of the
/// change consumers of ``Database/consumeItemChanges(_:)``).
///
/// The writer starts from the positions the namespace's writer keeps between writes
/// (``StreamAppender``, in `WriterState.streamAppenders`), so a write to a streamed table reads
/// neither its stream nor its open shard back from SQLite; a position is looked up again when
/// its table's stream changes (another label), after its table's definition changed, and after a
/// rolled-back write.
///
/// Only real changes make records: an item that appeared (INSERT), disappeared (REMOVE) or whose
/// attributes differ (MODIFY; items are compared decoded, so a rewrite with the same values in
/// another order is no change). Each record goes to its stream's open shard, which rolls over to
/// a child shard when it is old or large (see ``StreamNames``).
struct StreamRecordWriter {
    let connection: SQLiteConnection
    let region: String
    let now: Double
    /// The streams written to, by table name, with their open shard: those known before this
    /// write and those it looked up.
    private(set) var appenders: [String: StreamAppender]

    init(connection: SQLiteConnection, region: String, now: Double, appenders: [String: StreamAppender] = [:]) {
        self.connection = connection
        self.region = region
        self.now = now
        self.appenders = appenders
    }

    /// Appends the record of one change, if its table has an enabled stream and it is a real change.
    mutating func append(_ change: ItemChange) throws {
        guard let label = change.table.streamLabel, change.table.streamViewType != nil else { return }
        if let old = change.oldJSON, let new = change.newJSON, old == new { return }
        let oldItem = try change.oldJSON.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
        let newItem = try change.newJSON.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
        if let oldItem, let newItem, oldItem == newItem { return }
        guard let image = newItem ?? oldItem else { return }
        var appender = try appender(table: change.table.name, label: label)
        try rollOverIfDue(&appender)
        let sequence = appender.stream.nextSequence
        let keyNames = [appender.stream.partitionKey] + (appender.stream.sortKey.map { [$0] } ?? [])
        let keys = image.filter { keyNames.contains($0.key) }
        let view = appender.viewType
        let withNew = view == .newImage || view == .newAndOldImages
        let withOld = view == .oldImage || view == .newAndOldImages
        let newImage = withNew ? newItem : nil
        let oldImage = withOld ? oldItem : nil
        let size = ItemSize.of(keys) + (newImage.map(ItemSize.of) ?? 0) + (oldImage.map(ItemSize.of) ?? 0)
        let record = StreamsRecord(
            eventID: String(UUID().uuidString.lowercased().filter { $0 != "-" }),
            eventName: oldItem == nil ? .insert : newItem == nil ? .remove : .modify,
            eventVersion: "1.1", eventSource: "aws:dynamodb", awsRegion: region,
            dynamodb: StreamsStreamRecord(
                approximateCreationDateTime: Timestamp(secondsSince1970: now.rounded(.down)),
                keys: keys, newImage: newImage, oldImage: oldImage,
                sequenceNumber: StreamNames.sequenceNumber(sequence), sizeBytes: max(1, size),
                streamViewType: view),
            userIdentity: change.origin == .timeToLive
                ? StreamsIdentity(principalId: "dynamodb.amazonaws.com", type: "Service") : nil)
        try connection.statement("INSERT INTO stream_records (stream_id, sequence, shard, created, record) VALUES (?, ?, ?, ?, ?)")
            .bind(
                .integer(appender.stream.id), .integer(sequence), .integer(appender.shard.number), .real(now),
                .blob(record.jsonBytes)
            )
            .run()
        appender.stream.nextSequence += 1
        appenders[change.table.name] = appender
    }

    /// Stores each stream's next sequence number.
    func finish() throws {
        for appender in appenders.values {
            try connection.statement("UPDATE streams SET next_sequence = ? WHERE id = ?")
                .bind(.integer(appender.stream.nextSequence), .integer(appender.stream.id)).run()
        }
    }

    private mutating func appender(table: String, label: String) throws -> StreamAppender {
        if let known = appenders[table], known.stream.label == label { return known }
        guard let stream = try StreamCatalog.stream(table: table, label: label, connection: connection),
            let shard = try StreamCatalog.openShard(of: stream.id, connection: connection)
        else {
            throw EngineMessages.streamTableMissing(table: table)
        }
        return StreamAppender(stream: stream, shard: shard, viewType: StreamViewType(rawValue: stream.viewType))
    }

    /// Closes the open shard and opens its child when the shard holds records and is old or large.
    private func rollOverIfDue(_ appender: inout StreamAppender) throws {
        let shard = appender.shard
        let count = appender.stream.nextSequence - shard.firstSequence
        guard count > 0, now - shard.created >= StreamNames.rolloverSeconds || count >= StreamNames.rolloverRecords
        else { return }
        try StreamCatalog.close(shard, nextSequence: appender.stream.nextSequence, now: now, connection: connection)
        try StreamCatalog.openShard(
            of: appender.stream, number: shard.number + 1, parent: shard.shardID,
            firstSequence: appender.stream.nextSequence, now: now, connection: connection)
        guard let child = try StreamCatalog.openShard(of: appender.stream.id, connection: connection) else {
            throw EngineMessages.newShardNotStored
        }
        appender.shard = child
    }
}

/// Where a table's stream takes its next record: the stream (with its next sequence number, as
/// stored once the write commits) and its open shard.
struct StreamAppender {
    var stream: StreamRow
    var shard: ShardRow
    var viewType: StreamViewType
}

extension Database {
    /// Writes the stream records of the running write's changes (a change consumer).
    func writeStreamRecords(_ state: inout WriterState) throws {
        var writer = StreamRecordWriter(
            connection: state.connection, region: region, now: clock.now(), appenders: state.streamAppenders)
        for change in state.itemChanges { try writer.append(change) }
        try writer.finish()
        state.streamAppenders = writer.appenders
    }
}
