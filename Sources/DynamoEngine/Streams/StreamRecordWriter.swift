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
    let now: Double
    /// The streams written to, by table name, with their open shard: those known before this
    /// write and those it looked up.
    private(set) var appenders: [String: StreamAppender]

    /// The cache key of the record insert (kinds 210 and up are this file's; see
    /// `SQLiteConnection.statement(_:sql:)`).
    static let insertKey = StatementKey(kind: 210, table: -1)

    init(connection: SQLiteConnection, now: Double, appenders: [String: StreamAppender] = [:]) {
        self.connection = connection
        self.now = now
        self.appenders = appenders
    }

    /// Appends the record of one change, if its table has an enabled stream and it is a real change.
    ///
    /// The record is stored compact (``StoredStreamRecord``): the item's stored bytes as its
    /// images, the stored key as its keys and the stored sizes as its size, with no JSON
    /// envelope (GetRecords builds the record's JSON): an INSERT or a REMOVE decodes and encodes
    /// nothing. Only a rewrite of an existing item with other bytes decodes both versions, to
    /// tell a MODIFY from the same values in another order.
    mutating func append(_ change: ItemChange) throws {
        guard let label = change.table.streamLabel, change.table.streamViewType != nil else { return }
        if let old = change.oldJSON, let new = change.newJSON {
            if old == new { return }
            let oldItem = try AttributeValue.decodeItem(bytes: old)
            let newItem = try AttributeValue.decodeItem(bytes: new)
            if oldItem == newItem { return }
        }
        guard change.oldJSON != nil || change.newJSON != nil else { return }
        var appender = try appender(table: change.table.name, label: label)
        try rollOverIfDue(&appender)
        let sequence = appender.stream.nextSequence
        let newImage = appender.withNewImage ? change.newJSON : nil
        let oldImage = appender.withOldImage ? change.oldJSON : nil
        let imageSize = (newImage == nil ? 0 : change.newSize ?? 0) + (oldImage == nil ? 0 : change.oldSize ?? 0)
        var generator = SystemRandomNumberGenerator()
        let record = StoredStreamRecord.encode(
            event: change.oldJSON == nil ? .insert : change.newJSON == nil ? .remove : .modify,
            byTimeToLive: change.origin == .timeToLive, eventID: (generator.next(), generator.next()),
            imageSize: imageSize, key: change.key, table: change.table, newImage: newImage, oldImage: oldImage)
        try connection.statement(Self.insertKey) {
            "INSERT INTO stream_records (stream_id, sequence, shard, created, record) VALUES (?, ?, ?, ?, ?)"
        }
        .bind(
            .integer(appender.stream.id), .integer(sequence), .integer(appender.shard.number), .real(now),
            .blob(record)
        )
        .run()
        appender.stream.nextSequence += 1
        appenders[change.table.name] = appender
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
    /// Whether the stream's records hold the new image (`NEW_IMAGE`, `NEW_AND_OLD_IMAGES`).
    let withNewImage: Bool
    /// Whether they hold the old image (`OLD_IMAGE`, `NEW_AND_OLD_IMAGES`).
    let withOldImage: Bool

    init(stream: StreamRow, shard: ShardRow, viewType: StreamViewType) {
        self.stream = stream
        self.shard = shard
        withNewImage = viewType == .newImage || viewType == .newAndOldImages
        withOldImage = viewType == .oldImage || viewType == .newAndOldImages
    }
}

extension Database {
    /// Writes the stream records of the running write's changes (a change consumer).
    func writeStreamRecords(_ state: inout WriterState) throws {
        var writer = StreamRecordWriter(
            connection: state.connection, now: clock.now(), appenders: state.streamAppenders)
        // The writer holds the only reference while it appends (no copy of the positions per
        // write); a write that throws rolls back and forgets every position anyway.
        state.streamAppenders = [:]
        for change in state.itemChanges { try writer.append(change) }
        state.streamAppenders = writer.appenders
    }
}
