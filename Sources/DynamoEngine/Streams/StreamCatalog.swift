import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One stream of a table, as stored (`streams` table). Each enable of a table's stream makes a
/// new one; a stream ends when it is disabled or its table is deleted, and stays readable for
/// 24 hours after that.
struct StreamRow: Sendable {
    var id: Int64
    var tableName: String
    var label: String
    var viewType: String
    var partitionKey: String
    var sortKey: String?
    var created: Double
    /// When the stream stopped taking records (disabled, or its table deleted).
    var ended: Double?
    /// The key of this stream's iterator checks.
    var secret: UInt64
    /// The sequence number the next record gets (read through ``StreamCatalog/nextSequenceSQL``).
    var nextSequence: Int64

    /// Whether the stream is still listed at `now`.
    func isVisible(at now: Double) -> Bool {
        ended.map { now - $0 < StreamNames.retentionSeconds } ?? true
    }
}

/// One shard of a stream (`stream_shards`): a contiguous range of the stream's sequence numbers.
struct ShardRow: Sendable {
    var streamID: Int64
    var number: Int64
    var shardID: String
    var parentShardID: String?
    var created: Double
    /// The first sequence number the shard holds (or would hold).
    var firstSequence: Int64
    /// The last sequence number of a closed shard that took records.
    var lastSequence: Int64?
    var closedAt: Double?
    /// How many records a closed shard took (an open shard's count follows from its stream's
    /// next sequence number, so it is not written on every record).
    var recordCount: Int64
    /// The highest sequence number physically trimmed from the shard (0: none).
    var trimmedThrough: Int64

    /// Whether DescribeStream still lists the shard at `now`.
    func isVisible(at now: Double) -> Bool {
        closedAt.map { now - $0 < StreamNames.retentionSeconds } ?? true
    }
}

/// The SQL of the stream tables, inside the namespace's database.
enum StreamCatalog {
    /// Schema version 2: streams, their shards and their records.
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS streams (
            id INTEGER PRIMARY KEY,
            table_name TEXT NOT NULL,
            label TEXT NOT NULL,
            view_type TEXT NOT NULL,
            partition_key TEXT NOT NULL,
            sort_key TEXT,
            created REAL NOT NULL,
            ended REAL,
            secret INTEGER NOT NULL,
            next_sequence INTEGER NOT NULL,
            UNIQUE (table_name, label)
        );
        CREATE TABLE IF NOT EXISTS stream_shards (
            stream_id INTEGER NOT NULL,
            number INTEGER NOT NULL,
            shard_id TEXT NOT NULL,
            parent_shard_id TEXT,
            created REAL NOT NULL,
            first_sequence INTEGER NOT NULL,
            last_sequence INTEGER,
            closed_at REAL,
            record_count INTEGER NOT NULL DEFAULT 0,
            trimmed_through INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (stream_id, number)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS stream_records (
            stream_id INTEGER NOT NULL,
            sequence INTEGER NOT NULL,
            shard INTEGER NOT NULL,
            created REAL NOT NULL,
            record BLOB NOT NULL,
            PRIMARY KEY (stream_id, sequence)
        ) WITHOUT ROWID;
        """

    private static let streamColumns =
        "id, table_name, label, view_type, partition_key, sort_key, created, ended, secret, \(nextSequenceSQL)"

    /// The next sequence number of the stream of the current `streams` row, worked out from what
    /// the stream holds: one after its newest record, after every shard's start, last record and
    /// trimmed records, and at least the stored `next_sequence` (1 from the stream's start; a
    /// floor). A write does not store the number it used: the record it inserted is the number,
    /// so it commits, rolls back and survives a crash together with the record.
    static let nextSequenceSQL = """
        max(next_sequence,
            coalesce((SELECT max(sequence) FROM stream_records r WHERE r.stream_id = streams.id), 0) + 1,
            coalesce((SELECT max(max(first_sequence, trimmed_through + 1, coalesce(last_sequence, 0) + 1))
                      FROM stream_shards s WHERE s.stream_id = streams.id), 1))
        """
    private static let shardColumns =
        "stream_id, number, shard_id, parent_shard_id, created, first_sequence, last_sequence, closed_at, record_count, trimmed_through"

    // MARK: Streams

    /// Starts a new stream for `table` with one open shard; returns its label (the clock's time,
    /// moved on by a millisecond while an earlier stream of the same table has it).
    ///
    /// - Parameter label: the label to use (a stream that a table's definition already names,
    ///   adopted when a schema-1 database is migrated); `nil` makes one from `now`.
    static func startStream(
        for table: TableDefinition, viewType: String, label fixed: String? = nil, now: Double,
        connection: SQLiteConnection
    ) throws -> String {
        var at = now
        var label = fixed ?? StreamLabel.make(now: at)
        while fixed == nil, try stream(table: table.name, label: label, connection: connection) != nil {
            at += 0.001
            label = StreamLabel.make(now: at)
        }
        let secret = UInt64.random(in: 1...UInt64.max)
        try connection.statement(
            """
            INSERT INTO streams (table_name, label, view_type, partition_key, sort_key, created, secret, next_sequence)
            VALUES (?, ?, ?, ?, ?, ?, ?, 1)
            """
        )
        .bind(
            .text(table.name), .text(label), .text(viewType), .text(table.partitionKey.name),
            table.sortKey.map { .text($0.name) } ?? .null, .real(now), .integer(Int64(bitPattern: secret))
        )
        .run()
        guard let row = try stream(table: table.name, label: label, connection: connection) else {
            throw EngineMessages.newStreamNotStored
        }
        try openShard(of: row, number: 0, parent: nil, firstSequence: 1, now: now, connection: connection)
        return label
    }

    /// Ends a table's stream (disabled, or its table deleted): no more records; its open shard
    /// closes. Nothing happens for a label without a stream.
    static func endStream(table: String, label: String, now: Double, connection: SQLiteConnection) throws {
        guard let row = try stream(table: table, label: label, connection: connection), row.ended == nil else { return }
        try connection.statement("UPDATE streams SET ended = ? WHERE id = ?").bind(.real(now), .integer(row.id)).run()
        if let open = try openShard(of: row.id, connection: connection) {
            try close(open, nextSequence: row.nextSequence, now: now, connection: connection)
        }
    }

    static func stream(table: String, label: String, connection: SQLiteConnection) throws -> StreamRow? {
        let statement = try connection.statement("SELECT \(streamColumns) FROM streams WHERE table_name = ? AND label = ?")
        statement.bind(.text(table), .text(label))
        defer { statement.reset() }
        return try statement.step() ? streamRow(statement) : nil
    }

    /// Every stream, newest first (ListStreams' order), optionally of one table.
    static func streams(table: String?, connection: SQLiteConnection) throws -> [StreamRow] {
        let statement: SQLiteStatement
        if let table {
            statement = try connection.statement(
                "SELECT \(streamColumns) FROM streams WHERE table_name = ? ORDER BY created DESC, id DESC")
            statement.bind(.text(table))
        } else {
            statement = try connection.statement("SELECT \(streamColumns) FROM streams ORDER BY created DESC, id DESC")
        }
        var rows: [StreamRow] = []
        while try statement.step() { rows.append(streamRow(statement)) }
        return rows
    }

    private static func streamRow(_ statement: SQLiteStatement) -> StreamRow {
        StreamRow(
            id: statement.int64(0), tableName: statement.text(1), label: statement.text(2),
            viewType: statement.text(3), partitionKey: statement.text(4),
            sortKey: statement.isNull(5) ? nil : statement.text(5), created: statement.double(6),
            ended: statement.isNull(7) ? nil : statement.double(7),
            secret: UInt64(bitPattern: statement.int64(8)), nextSequence: statement.int64(9))
    }

    // MARK: Shards

    static func openShard(
        of stream: StreamRow, number: Int64, parent: String?, firstSequence: Int64, now: Double,
        connection: SQLiteConnection
    ) throws {
        let id = StreamNames.shardID(created: now, streamID: stream.id, number: number, secret: stream.secret)
        try connection.statement(
            """
            INSERT INTO stream_shards (stream_id, number, shard_id, parent_shard_id, created, first_sequence)
            VALUES (?, ?, ?, ?, ?, ?)
            """
        )
        .bind(
            .integer(stream.id), .integer(number), .text(id), parent.map { .text($0) } ?? .null, .real(now),
            .integer(firstSequence)
        )
        .run()
    }

    /// Closes the open shard of a stream whose next sequence number is `nextSequence`: its ending
    /// sequence number is its last record's (none when it took none).
    static func close(_ shard: ShardRow, nextSequence: Int64, now: Double, connection: SQLiteConnection) throws {
        let count = nextSequence - shard.firstSequence
        let last: SQLiteValue = count > 0 ? .integer(nextSequence - 1) : .null
        try connection.statement(
            """
            UPDATE stream_shards SET closed_at = ?, last_sequence = ?, record_count = ? WHERE stream_id = ? AND number = ?
            """
        )
        .bind(.real(now), last, .integer(count), .integer(shard.streamID), .integer(shard.number)).run()
    }

    static func openShard(of streamID: Int64, connection: SQLiteConnection) throws -> ShardRow? {
        let statement = try connection.statement(
            "SELECT \(shardColumns) FROM stream_shards WHERE stream_id = ? AND closed_at IS NULL ORDER BY number DESC LIMIT 1")
        statement.bind(.integer(streamID))
        defer { statement.reset() }
        return try statement.step() ? shardRow(statement) : nil
    }

    /// Every shard of a stream, oldest first.
    static func shards(of streamID: Int64, connection: SQLiteConnection) throws -> [ShardRow] {
        let statement = try connection.statement("SELECT \(shardColumns) FROM stream_shards WHERE stream_id = ? ORDER BY number")
        statement.bind(.integer(streamID))
        var rows: [ShardRow] = []
        while try statement.step() { rows.append(shardRow(statement)) }
        return rows
    }

    private static func shardRow(_ statement: SQLiteStatement) -> ShardRow {
        ShardRow(
            streamID: statement.int64(0), number: statement.int64(1), shardID: statement.text(2),
            parentShardID: statement.isNull(3) ? nil : statement.text(3), created: statement.double(4),
            firstSequence: statement.int64(5), lastSequence: statement.isNull(6) ? nil : statement.int64(6),
            closedAt: statement.isNull(7) ? nil : statement.double(7), recordCount: statement.int64(8),
            trimmedThrough: statement.int64(9))
    }
}

extension StreamCatalog {
    /// Schema 1 kept a stream label in a table's definition with no stream behind it: give each
    /// such table its stream, so its writes find one (part of the migration to schema 2).
    static func adoptStreams(connection: SQLiteConnection, now: Double) throws {
        let statement = try connection.statement("SELECT definition FROM catalog")
        var definitions: [TableDefinition] = []
        let decoder = JSONDecoder()
        while try statement.step() {
            definitions.append(try decoder.decode(TableDefinition.self, from: Data(statement.blob(0))))
        }
        for definition in definitions {
            guard let viewType = definition.streamViewType, let label = definition.streamLabel,
                try stream(table: definition.name, label: label, connection: connection) == nil
            else { continue }
            _ = try startStream(for: definition, viewType: viewType.rawValue, label: label, now: now, connection: connection)
        }
    }
}
