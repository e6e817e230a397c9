import DynamoAPI

/// Turns a write's item changes into stream records, inside the write's transaction (one of the
/// change consumers of ``Database/consumeItemChanges(_:)``).
///
/// The writer starts from the positions the namespace's writer keeps between writes
/// (``StreamAppender``, in `WriterState.streamAppenders`), so a write to a streamed table reads
/// neither its stream nor its open shard back from SQLite; a position is looked up again when
/// its table's stream changes (another label), after its table's definition changed, and after a
/// rolled-back write. Nothing else is written per record: the stream's next sequence number is
/// not stored back, it follows from the records (``StreamCatalog/nextSequenceSQL``).
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

    /// The cache key of the record insert (kinds 210 and up are this file's; see
    /// `SQLiteConnection.statement(_:sql:)`).
    static let insertKey = StatementKey(kind: 210, table: -1)

    init(connection: SQLiteConnection, region: String, now: Double, appenders: [String: StreamAppender] = [:]) {
        self.connection = connection
        self.region = region
        self.now = now
        self.appenders = appenders
    }

    /// Appends the record of one change, if its table has an enabled stream and it is a real change.
    ///
    /// The images are the item's stored bytes, written into the record unchanged (``RawItem``),
    /// the keys come from the stored key and the sizes from the stored sizes: an INSERT or a
    /// REMOVE decodes nothing. Only a rewrite of an existing item with other bytes decodes both
    /// versions, to tell a MODIFY from the same values in another order.
    mutating func append(_ change: ItemChange) throws {
        guard let label = change.table.streamLabel, change.table.streamViewType != nil else { return }
        if let old = change.oldJSON, let new = change.newJSON {
            if old == new { return }
            let oldItem = try AttributeValue.decodeItem(JSONValue(parsing: old))
            let newItem = try AttributeValue.decodeItem(JSONValue(parsing: new))
            if oldItem == newItem { return }
        }
        guard change.oldJSON != nil || change.newJSON != nil else { return }
        var appender = try appender(table: change.table.name, label: label)
        try rollOverIfDue(&appender)
        let sequence = appender.stream.nextSequence
        let keys = try Self.keys(of: change)
        let view = appender.viewType
        let withNew = view == .newImage || view == .newAndOldImages
        let withOld = view == .oldImage || view == .newAndOldImages
        let newImage = withNew ? change.newJSON : nil
        let oldImage = withOld ? change.oldJSON : nil
        let size =
            ItemSize.of(keys) + (newImage == nil ? 0 : change.newSize ?? 0) + (oldImage == nil ? 0 : change.oldSize ?? 0)
        let record = RawStreamsRecord(
            eventID: Self.eventID(),
            eventName: change.oldJSON == nil ? .insert : change.newJSON == nil ? .remove : .modify,
            eventVersion: "1.1", eventSource: "aws:dynamodb", awsRegion: region,
            dynamodb: RawStreamsStreamRecord(
                approximateCreationDateTime: Timestamp(secondsSince1970: now.rounded(.down)),
                keys: keys, newImage: newImage.map(RawItem.init), oldImage: oldImage.map(RawItem.init),
                sequenceNumber: StreamNames.sequenceNumber(sequence), sizeBytes: max(1, size),
                streamViewType: view),
            userIdentity: change.origin == .timeToLive
                ? StreamsIdentity(principalId: "dynamodb.amazonaws.com", type: "Service") : nil)
        try connection.statement(Self.insertKey) {
            "INSERT INTO stream_records (stream_id, sequence, shard, created, record) VALUES (?, ?, ?, ?, ?)"
        }
        .bind(
            .integer(appender.stream.id), .integer(sequence), .integer(appender.shard.number), .real(now),
            .blob(record.jsonBytes)
        )
        .run()
        appender.stream.nextSequence += 1
        appenders[change.table.name] = appender
    }

    /// The key attributes of the changed item, from its stored key (as a page's
    /// `LastEvaluatedKey` is made); from the item itself should a stored key not decode.
    private static func keys(of change: ItemChange) throws -> Item {
        let table = change.table
        let keys = table.keyItem(of: change.key)
        if keys.count == table.keyAttributes.count { return keys }
        guard let json = change.newJSON ?? change.oldJSON else { return keys }
        let names = table.keyAttributes.map(\.name)
        return try AttributeValue.decodeItem(JSONValue(parsing: json)).filter { names.contains($0.key) }
    }

    /// A record's event id: 32 random lowercase hex digits (a UUID's worth, without dashes).
    static func eventID() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(32)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            let hex = String(word, radix: 16)
            text.append(String(repeating: "0", count: 16 - hex.utf8.count))
            text.append(hex)
        }
        return text
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

/// Where a table's stream takes its next record: the stream (with its next sequence number, one
/// after the last record written) and its open shard.
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
        // The writer holds the only reference while it appends (no copy of the positions per
        // write); a write that throws rolls back and forgets every position anyway.
        state.streamAppenders = [:]
        for change in state.itemChanges { try writer.append(change) }
        state.streamAppenders = writer.appenders
    }
}
