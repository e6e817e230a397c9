import DynamoAPI
import DynamoClient

/// Reads the DynamoDB Streams of a store's tables and turns their records into
/// ``StoreChanges``: `INSERT` records are inserted objects, `MODIFY` updated ones, `REMOVE`
/// deleted ones, identified by entity (the table's) and key (the record's `Keys`).
///
/// It follows each table's latest stream shard by shard, a child only after its parent is
/// drained (so every change to an item is seen in order), picks up the new stream when a table's
/// stream is replaced, and recovers from expired iterators (after the last sequence number
/// read) and trimmed data (from the trim horizon). One task owns it; it is not shared.
struct StreamFollower {
    /// One table's stream and where each of its shards is read.
    struct TableCursor {
        let table: String
        let entity: String
        var streamARN: String?
        var shards: [String: ShardCursor] = [:]
        /// Shards read to their end (closed shards whose `NextShardIterator` came back empty).
        var drained: Set<String> = []
    }

    struct ShardCursor {
        var parent: String?
        var iterator: String?
        var lastSequence: String?
    }

    private let client: DynamoClient
    private var tables: [TableCursor]
    /// Polls since the tables' streams and shards were last looked up.
    private var pollsSinceDiscovery = 0
    /// Look the streams and shards up again after this many polls (a replaced stream, a new
    /// child shard after a rollover), or at once when a shard was read to its end; the polls
    /// between only read records.
    static let discoveryInterval = 20
    /// Records to read per `GetRecords` call.
    static let pageSize = 1000
    /// Pages read from one shard per poll, so one busy shard cannot starve the others.
    static let pagesPerPoll = 10
    /// DynamoDB Streams' errors for an iterator older than 15 minutes and for records past
    /// retention.
    static let expiredIterator = DynamoErrorCode(rawValue: "ExpiredIteratorException")
    static let trimmedDataAccess = DynamoErrorCode(rawValue: "TrimmedDataAccessException")

    init(client: DynamoClient, tables: [(table: String, entity: String)]) {
        self.client = client
        self.tables = tables.map { TableCursor(table: $0.table, entity: $0.entity) }
    }

    /// Finds every table's stream and places an iterator on each shard: at `LATEST` for shards
    /// still open when `start` is ``StreamStart/latest`` (closed ones count as read), at the trim
    /// horizon otherwise.
    ///
    /// - Throws: ``StoreError/streamNotEnabled(_:)`` for a table without a stream; DynamoDB's errors.
    mutating func position(at start: StreamStart) async throws {
        for index in tables.indices {
            try await discover(&tables[index], initial: start)
        }
    }

    /// Reads what arrived since the last poll, across every table.
    mutating func poll() async throws -> StoreChanges {
        var changes = StoreChanges()
        pollsSinceDiscovery += 1
        let rediscover = pollsSinceDiscovery >= Self.discoveryInterval
        if rediscover { pollsSinceDiscovery = 0 }
        for index in tables.indices {
            if rediscover { try await discover(&tables[index], initial: nil) }
            if try await read(&tables[index], into: &changes) {
                // A closed shard was drained: its children are there to be found now.
                try await discover(&tables[index], initial: nil)
                _ = try await read(&tables[index], into: &changes)
            }
        }
        return changes
    }

    /// Looks up the table's latest stream and its shards; new shards start at the trim horizon
    /// (or where `initial` says, on the first look).
    private func discover(_ cursor: inout TableCursor, initial: StreamStart?) async throws {
        let description = try await client.describeTable(DescribeTableInput(tableName: cursor.table)).table
        guard let arn = description?.latestStreamArn, description?.streamSpecification?.streamEnabled != false else {
            throw StoreError.streamNotEnabled(cursor.table)
        }
        if arn != cursor.streamARN {
            // A new stream (streams were disabled and enabled again): read it from its start.
            cursor = TableCursor(table: cursor.table, entity: cursor.entity, streamARN: arn)
        }
        var shards: [StreamsShard] = []
        var startAfter: String?
        repeat {
            let page = try await client.describeStream(StreamsDescribeStreamInput(streamArn: arn, exclusiveStartShardId: startAfter))
            shards += page.streamDescription?.shards ?? []
            startAfter = page.streamDescription?.lastEvaluatedShardId
        } while startAfter != nil
        for shard in shards {
            guard let id = shard.shardId, cursor.shards[id] == nil, !cursor.drained.contains(id) else { continue }
            let open = shard.sequenceNumberRange?.endingSequenceNumber == nil
            switch initial {
            case .latest?:
                guard open else {
                    cursor.drained.insert(id)
                    continue
                }
                cursor.shards[id] = ShardCursor(
                    parent: shard.parentShardId,
                    iterator: try await iterator(arn, id, .latest))
            case .trimHorizon?, nil:
                cursor.shards[id] = ShardCursor(
                    parent: shard.parentShardId,
                    iterator: try await iterator(arn, id, .trimHorizon))
            }
        }
    }

    /// Reads the shards whose parents are drained (or unknown: trimmed away).
    /// - Returns: whether a shard was read to its end.
    private func read(_ cursor: inout TableCursor, into changes: inout StoreChanges) async throws -> Bool {
        guard let arn = cursor.streamARN else { return false }
        var drainedAny = false
        var progressed = true
        while progressed {
            progressed = false
            for id in cursor.shards.keys.sorted() {
                guard var shard = cursor.shards[id] else { continue }
                if let parent = shard.parent, cursor.shards[parent] != nil { continue }
                var pages = 0
                while let iterator = shard.iterator, pages < Self.pagesPerPoll {
                    pages += 1
                    let page: StreamsGetRecordsOutput
                    do {
                        page = try await client.getRecords(StreamsGetRecordsInput(shardIterator: iterator, limit: Self.pageSize))
                    } catch let error as DynamoError where error.code == Self.expiredIterator {
                        shard.iterator = try await self.iterator(
                            arn, id, shard.lastSequence == nil ? .trimHorizon : .afterSequenceNumber,
                            after: shard.lastSequence)
                        continue
                    } catch let error as DynamoError where error.code == Self.trimmedDataAccess {
                        shard.iterator = try await self.iterator(arn, id, .trimHorizon)
                        continue
                    }
                    for record in page.records ?? [] {
                        Self.apply(record, entity: cursor.entity, to: &changes)
                        shard.lastSequence = record.dynamodb?.sequenceNumber ?? shard.lastSequence
                    }
                    shard.iterator = page.nextShardIterator
                    if page.records?.isEmpty ?? true { break }
                }
                if shard.iterator == nil {
                    // Closed and read to its end: its children may start.
                    cursor.shards[id] = nil
                    cursor.drained.insert(id)
                    progressed = true
                    drainedAny = true
                } else {
                    cursor.shards[id] = shard
                }
            }
        }
        return drainedAny
    }

    private func iterator(
        _ arn: String, _ shard: String, _ type: StreamsShardIteratorType,
        after sequence: String? = nil
    ) async throws -> String? {
        try await client.getShardIterator(
            StreamsGetShardIteratorInput(
                streamArn: arn, shardId: shard, shardIteratorType: type, sequenceNumber: sequence)
        ).shardIterator
    }

    /// Folds one record into `changes`, the later record of an object winning: an insert after a
    /// delete is an update, a delete removes earlier inserts and updates.
    static func apply(_ record: StreamsRecord, entity: String, to changes: inout StoreChanges) {
        guard let keys = record.dynamodb?.keys, let event = record.eventName else { return }
        let id = ObjectID(entityName: entity, key: keys)
        switch event {
        case .insert:
            if changes.deleted.remove(id) != nil { changes.updated.insert(id) } else { changes.inserted.insert(id) }
        case .modify:
            if !changes.inserted.contains(id) { changes.updated.insert(id) }
        case .remove:
            changes.inserted.remove(id)
            changes.updated.remove(id)
            changes.deleted.insert(id)
        default:
            return
        }
    }
}

/// Where ``DynamoStore/changes(fromStream:pollInterval:)`` starts reading.
public enum StreamStart: Sendable, Hashable {
    /// Only changes committed after the call returns.
    case latest
    /// Every change the streams still hold (up to 24 hours).
    case trimHorizon
}
