import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

@Suite("Stream lifecycle and iterators")
struct StreamLifecycleTests {
    typealias Support = StreamTestSupport

    static func streamSpecification(_ enabled: Bool, _ view: StreamViewType? = nil) -> UpdateTableInput {
        UpdateTableInput(tableName: "Events", streamSpecification: StreamSpecification(streamEnabled: enabled, streamViewType: view))
    }

    @Test("every enable makes a new stream; a disabled one stays readable for 24 hours")
    func enableDisable() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let first = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        #expect(throws: DynamoError.validation("Table already has an enabled stream: TableName: Events")) {
            try database.updateTable(Self.streamSpecification(true, .keysOnly), now: database.clock.now())
        }
        _ = try database.updateTable(Self.streamSpecification(false), now: database.clock.now())
        #expect(throws: DynamoError.validation("Table has no stream to disable: TableName: Events")) {
            try database.updateTable(Self.streamSpecification(false), now: database.clock.now())
        }
        #expect(
            throws: DynamoError.validation(
                EngineMessages.invalidParameters + "If stream is being disabled, then UpdateViewType must not be specified")
        ) {
            try database.updateTable(Self.streamSpecification(false, .keysOnly), now: database.clock.now())
        }
        #expect(throws: DynamoError.validation(EngineMessages.invalidParameters + "If stream is being enabled then UpdateViewType is required")) {
            try database.updateTable(Self.streamSpecification(true), now: database.clock.now())
        }
        try Support.put(database, ["pk": .s("b")])
        let disabled = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: first)).streamDescription)
        #expect(disabled.streamStatus == .disabled)
        #expect(disabled.shards?.first?.sequenceNumberRange?.endingSequenceNumber != nil)
        #expect(try Support.consume(database, streamARN: first).count == 1)

        _ = try database.updateTable(Self.streamSpecification(true, .keysOnly), now: database.clock.now())
        let second = try Support.latestStreamARN(database)
        #expect(second != first)
        let listed = try database.listStreams(StreamsListStreamsInput(tableName: "Events")).streams ?? []
        #expect(listed.map(\.streamArn) == [second, first])
        let page = try database.listStreams(StreamsListStreamsInput(limit: 1))
        #expect(page.streams?.map(\.streamArn) == [second])
        #expect(page.lastEvaluatedStreamArn == second)
        #expect(try database.listStreams(StreamsListStreamsInput(exclusiveStartStreamArn: second)).streams?.map(\.streamArn) == [first])

        try database.clock.advance(by: 24 * 3600)
        #expect(throws: StreamErrors.streamNotFound(first)) {
            try database.describeStream(StreamsDescribeStreamInput(streamArn: first))
        }
        #expect(try database.listStreams(StreamsListStreamsInput()).streams?.map(\.streamArn) == [second])
    }

    @Test("a deleted table's stream stays readable for 24 hours")
    func deletedTable() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        _ = try database.deleteTable(named: "Events")
        #expect(try Support.consume(database, streamARN: arn).map(\.eventName) == [.insert])
        #expect(try database.listStreams(StreamsListStreamsInput(tableName: "Events")).streams?.count == 1)
        try database.clock.advance(by: 24 * 3600 + 1)
        #expect(throws: StreamErrors.tableNotFound("Events")) {
            try database.listStreams(StreamsListStreamsInput(tableName: "Events"))
        }
    }

    @Test("iterators expire after 15 minutes; records are trimmed after 24 hours")
    func expiryAndTrimming() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        let shard = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards?.first)
        let iterator = try #require(
            database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard.shardId!, shardIteratorType: .trimHorizon)
            ).shardIterator)
        try database.clock.advance(by: 15 * 60 + 1)
        #expect(throws: DynamoError.self) { try database.getRecords(StreamsGetRecordsInput(shardIterator: iterator)) }
        #expect(
            throws: DynamoError(
                .expiredIterator,
                "Iterator expired. The iterator was created at time Thu Jan 01 00:00:00 UTC 2026 while right now it is "
                    + "Thu Jan 01 00:15:01 UTC 2026 which is further in the future than the tolerated delay of 900000 milliseconds.")
        ) { try database.getRecords(StreamsGetRecordsInput(shardIterator: iterator)) }
        let sequence = try #require(shard.sequenceNumberRange?.startingSequenceNumber)
        // An iterator taken shortly before its record ages out meets trimmed data when used.
        try database.clock.advance(by: 24 * 3600 - 15 * 60 - 10 * 60)
        let fresh = try #require(
            database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard.shardId!, shardIteratorType: .atSequenceNumber, sequenceNumber: sequence)
            ).shardIterator)
        try database.clock.advance(by: 11 * 60)
        #expect(throws: StreamErrors.trimmed()) { try database.getRecords(StreamsGetRecordsInput(shardIterator: fresh)) }
        #expect(throws: StreamErrors.trimmed()) {
            try database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard.shardId!, shardIteratorType: .atSequenceNumber, sequenceNumber: sequence))
        }
        // The trim horizon moved past the trimmed record; the sweeper's trimming keeps it so.
        #expect(try Support.consume(database, streamARN: arn).isEmpty)
        _ = try database.sweepExpiredItems()
        #expect(try Support.consume(database, streamARN: arn).isEmpty)
        #expect(throws: StreamErrors.trimmed()) {
            try database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard.shardId!, shardIteratorType: .atSequenceNumber, sequenceNumber: sequence))
        }
    }

    @Test("forged, tampered and malformed iterators are refused without leaking records")
    func forgedIterators() throws {
        let database = try Support.database()
        try Support.makeTable(database, name: "Events")
        try Support.makeTable(database, name: "Secrets")
        try Support.put(database, ["pk": .s("hidden")], table: "Secrets")
        let events = try Support.latestStreamARN(database, table: "Events")
        let secrets = try Support.latestStreamARN(database, table: "Secrets")
        let shard = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: events)).streamDescription?.shards?.first?.shardId)
        let iterator = try #require(
            database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: events, shardId: shard, shardIteratorType: .trimHorizon)
            ).shardIterator)
        let forged = iterator.replacingOccurrences(of: events, with: secrets)
        var tampered = Array(iterator)
        tampered[tampered.count - 20] = tampered[tampered.count - 20] == "0" ? "1" : "0"
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<50).map { _ in
            String(
                (0..<Int.random(in: 0...120, using: &generator)).map { _ in
                    "|0123456789abcdef:arn/".randomElement(using: &generator)!
                })
        }
        for text in [forged, String(tampered), "", "x|1|", "\(secrets)|1|" + String(repeating: "0", count: 112)] + garbage {
            #expect(throws: StreamErrors.invalidIterator()) { try database.getRecords(StreamsGetRecordsInput(shardIterator: text)) }
        }
        #expect(throws: StreamErrors.invalidStreamARN()) {
            try database.describeStream(StreamsDescribeStreamInput(streamArn: "arn:aws:dynamodb:us-east-1:000000000000:table/Events"))
        }
        #expect(throws: StreamErrors.shardNotFound()) {
            try database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: secrets, shardId: shard, shardIteratorType: .latest))
        }
        #expect(throws: StreamErrors.sequenceNumberRequired("AT_SEQUENCE_NUMBER")) {
            try database.getShardIterator(StreamsGetShardIteratorInput(streamArn: events, shardId: shard, shardIteratorType: .atSequenceNumber))
        }
        #expect(throws: StreamErrors.invalidSequenceNumber("999999999999999999999", shard: shard)) {
            try database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: events, shardId: shard, shardIteratorType: .afterSequenceNumber, sequenceNumber: "999999999999999999999"))
        }
    }

    @Test("LATEST skips what is there; a closed shard's last page has no next iterator")
    func latestAndRollover() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("old")])
        let shard = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards?.first?.shardId)
        let latest = try #require(
            database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard, shardIteratorType: .latest)
            ).shardIterator)
        try Support.put(database, ["pk": .s("new")])
        try database.clock.advance(by: 4 * 3600)
        try Support.put(database, ["pk": .s("child")])
        // The iterator is older than 15 minutes now: take a new one after the first record.
        let first = try Support.consume(database, streamARN: arn)
        #expect(first.map { $0.dynamodb?.keys?["pk"] } == [.s("old"), .s("new"), .s("child")])
        let again = try #require(
            database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard, shardIteratorType: .afterSequenceNumber,
                    sequenceNumber: first[0].dynamodb!.sequenceNumber!)
            ).shardIterator)
        let page = try database.getRecords(StreamsGetRecordsInput(shardIterator: again))
        #expect(page.records?.map { $0.dynamodb?.keys?["pk"] } == [.s("new")])
        #expect(page.nextShardIterator == nil)
        let shards = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards)
        #expect(shards.count == 2)
        #expect(shards[1].parentShardId == shard)
        #expect(shards[0].sequenceNumberRange?.endingSequenceNumber == first[1].dynamodb?.sequenceNumber)
        _ = latest
    }

    @Test("a schema-1 database's stream-enabled tables get their streams when migrated")
    func migration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/us-east-1.db"
        let clock = Support.clock()
        do {
            let database = try Support.database(path: path, clock: clock)
            try Support.makeTable(database)
        }
        // What schema 1 left behind: the label in the definition, no stream tables.
        let raw = try SQLiteConnection(path: path)
        try raw.execute("DROP TABLE streams; DROP TABLE stream_shards; DROP TABLE stream_records; PRAGMA user_version = 1;")
        let database = try Support.database(path: path, clock: clock)
        try Support.put(database, ["pk": .s("after")])
        let arn = try Support.latestStreamARN(database)
        #expect(try Support.consume(database, streamARN: arn).map { $0.dynamodb?.keys?["pk"] } == [.s("after")])
    }

    @Test("a shard that reaches the record limit rolls over without waiting for the clock")
    func rolloverBySize() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("first")])
        // Stand in for 99,999 more records: the open shard's count follows its sequence numbers,
        // and the stored next sequence number is their floor.
        try database.write { state in
            try state.connection.execute("UPDATE streams SET next_sequence = \(StreamNames.rolloverRecords + 1)")
            // The writer's remembered position predates the edit behind its back.
            state.streamAppenders = [:]
        }
        try Support.put(database, ["pk": .s("second")])
        let shards = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards)
        #expect(shards.count == 2)
        #expect(shards[0].sequenceNumberRange?.endingSequenceNumber == StreamNames.sequenceNumber(StreamNames.rolloverRecords))
        #expect(try Support.consume(database, streamARN: arn).map { $0.dynamodb?.keys?["pk"] } == [.s("first"), .s("second")])
    }

    @Test("sequence numbers go on after every record was trimmed and the writer forgot its position")
    func sequenceAfterTrim() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        try Support.put(database, ["pk": .s("b")])
        try database.clock.advance(by: StreamNames.retentionSeconds + 1)
        try database.trimStreams(now: database.clock.now())
        // The position is worked out from what is stored again (as after a restart).
        try database.write { state in state.streamAppenders = [:] }
        try Support.put(database, ["pk": .s("c")])
        let records = try Support.consume(database, streamARN: arn)
        #expect(records.map { $0.dynamodb?.sequenceNumber } == [StreamNames.sequenceNumber(3)])
    }

    @Test("trimming takes a stream's records in sequence order up to the first one within retention")
    func trimUpToFirstKept() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        try Support.put(database, ["pk": .s("b")])
        try database.clock.advance(by: StreamNames.retentionSeconds / 2)
        try Support.put(database, ["pk": .s("c")])
        try database.clock.advance(by: StreamNames.retentionSeconds / 2 + 1)
        try database.trimStreams(now: database.clock.now())
        let stored = try database.read { connection in
            let rows = try connection.statement("SELECT sequence FROM stream_records ORDER BY sequence")
            defer { rows.reset() }
            var sequences: [Int64] = []
            while try rows.step() { sequences.append(rows.int64(0)) }
            return sequences
        }
        #expect(stored == [3])
        #expect(try Support.consume(database, streamARN: arn).map { $0.dynamodb?.keys?["pk"] } == [.s("c")])
        // A second trim with nothing past retention changes nothing.
        try database.trimStreams(now: database.clock.now())
        #expect(try Support.consume(database, streamARN: arn).map { $0.dynamodb?.keys?["pk"] } == [.s("c")])
    }

    @Test("a trim reads records by the primary key, never a scan of every stream record")
    func trimStatementsSearchThePrimaryKey() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        for sql in [StreamTrim.oldestSQL, StreamTrim.firstKeptSQL, StreamTrim.markTrimmedSQL, StreamTrim.deleteSQL] {
            let plan = try database.read { connection in
                let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
                defer { statement.reset() }
                var details: [String] = []
                while try statement.step() { details.append(statement.text(3)) }
                return details.joined(separator: "; ")
            }
            #expect(!plan.contains("SCAN stream_records") && !plan.contains("SCAN r"), "\(sql): \(plan)")
            #expect(plan.contains("PRIMARY KEY (stream_id=?"), "\(sql): \(plan)")
        }
    }

    /// The `pk` of each record, shard by shard in DescribeStream's order.
    static func keysByShard(_ database: Database, streamARN: String) throws -> [[String]] {
        let description = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: streamARN)).streamDescription)
        return try (description.shards ?? []).map { shard in
            let iterator = try database.getShardIterator(
                StreamsGetShardIteratorInput(streamArn: streamARN, shardId: try #require(shard.shardId), shardIteratorType: .trimHorizon)
            ).shardIterator
            let records = try database.getRecords(StreamsGetRecordsInput(shardIterator: try #require(iterator), limit: 1000)).records ?? []
            return records.compactMap { record -> String? in
                if case .s(let key) = record.dynamodb?.keys?["pk"] { return key }
                return nil
            }
        }
    }

    @Test("records land in the open shard across rollovers and a disable and re-enable (the writer's remembered position)")
    func rememberedPositionFollowsShardsAndStreams() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let first = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        try Support.put(database, ["pk": .s("b")])
        try database.clock.advance(by: StreamNames.rolloverSeconds)
        try Support.put(database, ["pk": .s("c")])
        try Support.put(database, ["pk": .s("d")])
        try database.clock.advance(by: StreamNames.rolloverSeconds)
        try Support.put(database, ["pk": .s("e")])
        #expect(try Self.keysByShard(database, streamARN: first) == [["a", "b"], ["c", "d"], ["e"]])

        _ = try database.updateTable(Self.streamSpecification(false), now: database.clock.now())
        try Support.put(database, ["pk": .s("unstreamed")])
        _ = try database.updateTable(Self.streamSpecification(true, .keysOnly), now: database.clock.now())
        let second = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("f")])
        try Support.put(database, ["pk": .s("g")])
        #expect(try Self.keysByShard(database, streamARN: first) == [["a", "b"], ["c", "d"], ["e"]])
        #expect(try Self.keysByShard(database, streamARN: second) == [["f", "g"]])
        let records = try Support.consume(database, streamARN: second)
        #expect(records.map { $0.dynamodb?.sequenceNumber } == [StreamNames.sequenceNumber(1), StreamNames.sequenceNumber(2)])

        // A deleted and recreated table starts a stream of its own.
        _ = try database.deleteTable(named: "Events")
        try Support.makeTable(database)
        let third = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("h")])
        #expect(try Self.keysByShard(database, streamARN: second) == [["f", "g"]])
        #expect(try Self.keysByShard(database, streamARN: third) == [["h"]])
    }

    @Test("a rolled-back write's records and shard rollover leave no trace in the next write's position")
    func rolledBackWriteForgetsPosition() throws {
        struct Abort: Error {}
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        try database.clock.advance(by: StreamNames.rolloverSeconds)
        // Stream records written (rolling the shard over), then the transaction fails.
        #expect(throws: Abort.self) {
            try database.write { state in
                state.itemChanges = [
                    ItemChange(
                        table: try database.table(named: "Events"), key: StoredKey(hash: 0, partition: [], sort: []),
                        oldJSON: nil, newJSON: Array(#"{"pk":{"S":"ghost"}}"#.utf8), oldSize: nil, newSize: 7,
                        origin: .request)
                ]
                try database.writeStreamRecords(&state)
                state.itemChanges = []
                throw Abort()
            }
        }
        try Support.put(database, ["pk": .s("b")])
        #expect(try Self.keysByShard(database, streamARN: arn) == [["a"], ["b"]])
        let records = try Support.consume(database, streamARN: arn)
        #expect(records.map { $0.dynamodb?.sequenceNumber } == [StreamNames.sequenceNumber(1), StreamNames.sequenceNumber(2)])
    }
}
