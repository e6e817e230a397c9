import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

@Suite("AT_TIMESTAMP shard iterators")
struct StreamTimestampIteratorTests {
    typealias Support = StreamTestSupport

    /// The table's shards as DescribeStream lists them.
    static func shards(_ database: Database, _ arn: String) throws -> [StreamsShard] {
        try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards)
    }

    static func iterator(_ database: Database, _ arn: String, _ shard: StreamsShard, at seconds: Double) throws -> String? {
        try database.getShardIterator(
            StreamsGetShardIteratorInput(
                streamArn: arn, shardId: shard.shardId ?? "", shardIteratorType: .atTimestamp,
                timestamp: Timestamp(secondsSince1970: seconds))
        ).shardIterator
    }

    /// The first page read from an AT_TIMESTAMP iterator.
    static func page(_ database: Database, _ arn: String, _ shard: StreamsShard, at seconds: Double) throws -> StreamsGetRecordsOutput {
        let iterator = try #require(try iterator(database, arn, shard, at: seconds))
        return try database.getRecords(StreamsGetRecordsInput(shardIterator: iterator, limit: 1000))
    }

    static func keys(_ page: StreamsGetRecordsOutput) -> [String] {
        (page.records ?? []).compactMap { record in
            if case .s(let key)? = record.dynamodb?.keys?["pk"] { return key }
            return nil
        }
    }

    @Test("Timestamp is required with AT_TIMESTAMP and refused with any other type, checked before the stream")
    func timestampRules() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        let shard = try #require(try Self.shards(database, arn).first?.shardId)
        let unknown = arn + "0"
        for stream in [arn, unknown] {
            #expect(throws: StreamErrors.timestampRequired()) {
                try database.getShardIterator(StreamsGetShardIteratorInput(streamArn: stream, shardId: shard, shardIteratorType: .atTimestamp))
            }
            for type in [StreamsShardIteratorType.trimHorizon, .latest] {
                #expect(throws: StreamErrors.timestampNotAllowed(type.rawValue)) {
                    try database.getShardIterator(
                        StreamsGetShardIteratorInput(
                            streamArn: stream, shardId: shard, shardIteratorType: type, timestamp: Timestamp(secondsSince1970: Support.start)))
                }
            }
            #expect(throws: StreamErrors.timestampNotAllowed("AT_SEQUENCE_NUMBER")) {
                try database.getShardIterator(
                    StreamsGetShardIteratorInput(
                        streamArn: stream, shardId: shard, shardIteratorType: .atSequenceNumber,
                        sequenceNumber: StreamNames.sequenceNumber(1), timestamp: Timestamp(secondsSince1970: Support.start)))
            }
            // SequenceNumber with AT_TIMESTAMP is refused as with TRIM_HORIZON or LATEST, before the Timestamp.
            for timestamp in [nil, Timestamp(secondsSince1970: Support.start)] {
                #expect(throws: StreamErrors.sequenceNumberNotAllowed("AT_TIMESTAMP")) {
                    try database.getShardIterator(
                        StreamsGetShardIteratorInput(
                            streamArn: stream, shardId: shard, shardIteratorType: .atTimestamp,
                            sequenceNumber: StreamNames.sequenceNumber(1), timestamp: timestamp))
                }
            }
            // A time after the server clock, by one millisecond or by years.
            let nowMillis = Int64(Support.start) * 1000
            for (seconds, millis) in [(Support.start + 0.001, nowMillis + 1), (Support.start + 86_400 * 365, nowMillis + 86_400 * 365 * 1000)] {
                #expect(throws: StreamErrors.timestampInFuture(millis: millis, nowMillis: nowMillis)) {
                    try database.getShardIterator(
                        StreamsGetShardIteratorInput(
                            streamArn: stream, shardId: shard, shardIteratorType: .atTimestamp,
                            timestamp: Timestamp(secondsSince1970: seconds)))
                }
            }
        }
        // The present instant is not the future; a sub-millisecond past it is still the present millisecond.
        for seconds in [Support.start, Support.start + 0.0009] {
            #expect(try Self.iterator(database, arn, try #require(try Self.shards(database, arn).first), at: seconds) != nil)
        }
        #expect(throws: StreamErrors.streamNotFound(unknown)) {
            try database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: unknown, shardId: shard, shardIteratorType: .atTimestamp, timestamp: Timestamp(secondsSince1970: Support.start)))
        }
        #expect(throws: StreamErrors.shardNotFound()) {
            try database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: "shardId-00000000000000000000-00000000", shardIteratorType: .atTimestamp,
                    timestamp: Timestamp(secondsSince1970: Support.start)))
        }
    }

    @Test("the first record whose ApproximateCreationDateTime (whole seconds) is at or after the Timestamp's millisecond")
    func wholeSecondsAgainstMilliseconds() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        // a at 0.2 s, b at 0.9 s, c at 1.5 s, d at 3.001 s after the start: seconds 0, 0, 1, 3.
        for (key, step) in [("a", 0.2), ("b", 0.7), ("c", 0.6), ("d", 1.501)] {
            try database.clock.advance(by: step)
            try Support.put(database, ["pk": .s(key)])
        }
        try database.clock.advance(by: 10)
        let shard = try #require(try Self.shards(database, arn).first)
        let start = Support.start
        let cases: [(Double, [String])] = [
            (start - 3600, ["a", "b", "c", "d"]),
            (start, ["a", "b", "c", "d"]),
            // 0.0004 s is millisecond 0: records of second 0 are at or after it.
            (start + 0.0004, ["a", "b", "c", "d"]),
            // Records of second 0 were made after 0.1 s, but their ApproximateCreationDateTime is before it.
            (start + 0.1, ["c", "d"]),
            (start + 0.480, ["c", "d"]),
            (start + 1, ["c", "d"]),
            (start + 1.001, ["d"]),
            (start + 2.999, ["d"]),
            (start + 3, ["d"]),
            (start + 3.0005, ["d"]),
            (start + 3.001, []),
            (start + 10, []),
        ]
        for (seconds, expected) in cases {
            let page = try Self.page(database, arn, shard, at: seconds)
            #expect(Self.keys(page) == expected, "Timestamp \(seconds - start) s after the start")
            // The shard is open: an empty answer still hands on an iterator.
            #expect(page.nextShardIterator != nil)
        }
        // One millisecond past a whole second is past that second's records (a truncated fraction would include them).
        #expect(Self.keys(try Self.page(database, arn, shard, at: start + 1.001)) == ["d"])
        #expect(Self.keys(try Self.page(database, arn, shard, at: Double(Int64(start) * 1_000_000 + 1_001_000) / 1_000_000)) == ["d"])
        #expect(Self.keys(try Self.page(database, arn, shard, at: Double(Int64(start) * 1_000_000 + 1_000_999) / 1_000_000)) == ["c", "d"])
        #expect(StreamTimestamps.millis(of: Timestamp(secondsSince1970: 1_767_225_600.123)) == 1_767_225_600_123)
        #expect(StreamTimestamps.millis(of: Timestamp(secondsSince1970: 1_767_225_601.001)) == 1_767_225_601_001)
        #expect(StreamTimestamps.millis(of: Timestamp(secondsSince1970: -1.5)) == -1500)
        #expect(StreamTimestamps.millis(of: Timestamp(secondsSince1970: -0.0004)) == -1)
        #expect(StreamTimestamps.firstSecond(atOrAfter: -1500) == -1)
        #expect(StreamTimestamps.firstSecond(atOrAfter: -1000) == -1)
        #expect(StreamTimestamps.millis(of: Timestamp(secondsSince1970: 1e300)) == .max)
        #expect(StreamTimestamps.millis(of: Timestamp(secondsSince1970: -1e300)) == .min)
    }

    @Test("a time before the trim horizon starts at the oldest retained record, before and after the sweeper trims")
    func beforeTrimHorizon() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("old")])
        try database.clock.advance(by: 3 * 3600)
        try Support.put(database, ["pk": .s("middle")])
        try database.clock.advance(by: 24 * 3600 - 5 * 60)
        try Support.put(database, ["pk": .s("new")])
        // "old" is almost 27 hours old, past retention, "middle" 5 minutes short of it; the shard
        // rolled over at the third write.
        let shards = try Self.shards(database, arn)
        try #require(shards.count == 2)
        for sweep in [false, true] {
            if sweep { _ = try database.sweepExpiredItems() }
            #expect(Self.keys(try Self.page(database, arn, shards[0], at: Support.start)) == ["middle"])
            #expect(Self.keys(try Self.page(database, arn, shards[0], at: 0)) == ["middle"])
            #expect(Self.keys(try Self.page(database, arn, shards[1], at: -86_400 * 365 * 50)) == ["new"])
        }
        // The trim horizon moves on: the record read by the iterator is trimmed when it is used.
        let iterator = try #require(try Self.iterator(database, arn, shards[0], at: Support.start))
        try database.clock.advance(by: 6 * 60)
        #expect(throws: StreamErrors.trimmed()) { try database.getRecords(StreamsGetRecordsInput(shardIterator: iterator)) }
        // Every record of the closed shard is past retention: the iterator is after its end, and drained at once.
        let drained = try Self.page(database, arn, shards[0], at: Support.start)
        #expect(drained.records?.isEmpty == true)
        #expect(drained.nextShardIterator == nil)
    }

    @Test("in a closed shard: its records from the time on, and a drained shard after its last record")
    func closedShard() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        try Support.put(database, ["pk": .s("a")])
        try database.clock.advance(by: 2.5)
        try Support.put(database, ["pk": .s("b")])
        try database.clock.advance(by: StreamNames.rolloverSeconds)
        try Support.put(database, ["pk": .s("c")])
        let shards = try Self.shards(database, arn)
        try #require(shards.count == 2)
        #expect(shards[0].sequenceNumberRange?.endingSequenceNumber != nil)
        let closed = try Self.page(database, arn, shards[0], at: Support.start + 1)
        #expect(Self.keys(closed) == ["b"])
        #expect(closed.nextShardIterator == nil)
        let after = try Self.page(database, arn, shards[0], at: Support.start + 3)
        #expect(Self.keys(after).isEmpty)
        #expect(after.nextShardIterator == nil)
        #expect(Self.keys(try Self.page(database, arn, shards[1], at: Support.start + 1)) == ["c"])
        // A disabled stream's shard is closed too.
        _ = try database.updateTable(
            UpdateTableInput(tableName: "Events", streamSpecification: StreamSpecification(streamEnabled: false)), now: database.clock.now())
        let last = try Self.page(database, arn, try Self.shards(database, arn)[1], at: Support.start)
        #expect(Self.keys(last) == ["c"])
        #expect(last.nextShardIterator == nil)
    }

    @Test("the position is found through the stream records' primary key")
    func positionSearchesThePrimaryKey() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        let plan = try database.read { connection in
            let statement = try connection.statement("EXPLAIN QUERY PLAN " + StreamTimestamps.positionSQL)
            defer { statement.reset() }
            var details: [String] = []
            while try statement.step() { details.append(statement.text(3)) }
            return details.joined(separator: "; ")
        }
        #expect(!plan.contains("SCAN stream_records"), "\(plan)")
        #expect(plan.contains("PRIMARY KEY (stream_id=? AND sequence>? AND sequence<?)"), "\(plan)")
    }

    /// Random write times (fractions of a second to hours, so shards roll over and records age
    /// past retention, sometimes swept) and random timestamps (around records' seconds to the
    /// microsecond, anywhere in the stream's life, before it, the present, the future): every
    /// AT_TIMESTAMP iterator reads exactly the reference's records, the reference being the
    /// shard's retained records (read from its trim horizon) from the first whose
    /// `ApproximateCreationDateTime` × 1000 is at or after the timestamp's millisecond.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomAgainstRecordByRecordReference(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try Support.database()
        try Support.makeTable(database)
        let arn = try Support.latestStreamARN(database)
        var checked = 0
        for round in 0..<6 {
            for index in 0..<Int.random(in: 5...40, using: &random) {
                let roll = Int.random(in: 0..<100, using: &random)
                let micros: Int64 =
                    roll < 60
                    ? Int64.random(in: 0...999_999, using: &random)
                    : roll < 85
                        ? Int64.random(in: 0...5_000_000, using: &random)
                        : roll < 97 ? Int64.random(in: 0...3_600_000_000, using: &random) : Int64.random(in: 0...30_000_000_000, using: &random)
                try database.clock.advance(by: Double(micros) / 1_000_000)
                try Support.put(database, ["pk": .s("r\(round)-\(index)")])
            }
            if Bool.random(using: &random) { _ = try database.sweepExpiredItems() }
            let now = database.clock.now()
            let nowMicros = Int64((now * 1_000_000).rounded(.down))
            for shard in try Self.shards(database, arn) {
                // The reference: the shard's retained records, in order, with their seconds.
                var reference: [(key: String, second: Int64)] = []
                var iterator = try database.getShardIterator(
                    StreamsGetShardIteratorInput(streamArn: arn, shardId: shard.shardId ?? "", shardIteratorType: .trimHorizon)
                ).shardIterator
                while let current = iterator {
                    let page = try database.getRecords(StreamsGetRecordsInput(shardIterator: current, limit: 1000))
                    for record in page.records ?? [] {
                        let seconds = try #require(record.dynamodb?.approximateCreationDateTime?.secondsSince1970)
                        guard case .s(let key)? = record.dynamodb?.keys?["pk"] else { throw DynamoError.validation("no key") }
                        reference.append((key, Int64(seconds)))
                    }
                    iterator = (page.records ?? []).isEmpty ? nil : page.nextShardIterator
                }
                let closed = shard.sequenceNumberRange?.endingSequenceNumber != nil
                let horizonMillis = Int64(((now - StreamNames.retentionSeconds) * 1000).rounded(.down))
                for _ in 0..<25 {
                    // Microseconds of a timestamp: near a record's second, anywhere, long before, the present.
                    let near = reference.isEmpty ? Int64(Support.start) : reference[Int.random(in: 0..<reference.count, using: &random)].second
                    let kind = Int.random(in: 0..<10, using: &random)
                    let micros: Int64 =
                        switch kind {
                        case 0...3: near * 1_000_000 + Int64.random(in: -1_500_000...1_500_000, using: &random)
                        case 4: near * 1_000_000 + Int64.random(in: -2...2, using: &random) * 1000 + Int64.random(in: 0...1, using: &random)
                        case 5...7:
                            Int64(Support.start) * 1_000_000
                                + Int64.random(in: -3_600_000_000...(nowMicros - Int64(Support.start) * 1_000_000), using: &random)
                        case 8: Int64.random(in: 0...Int64(Support.start) * 1_000_000, using: &random)
                        default: min(nowMicros, near * 1_000_000 + 999_999)
                        }
                    let seconds = Double(micros) / 1_000_000
                    let millis = micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000)
                    if millis > nowMicros / 1000 {
                        #expect(throws: DynamoError.self) { try Self.iterator(database, arn, shard, at: seconds) }
                        continue
                    }
                    let expected =
                        millis < horizonMillis ? reference.map(\.key) : Array(reference.drop { $0.second * 1000 < millis }.map(\.key))
                    let page = try Self.page(database, arn, shard, at: seconds)
                    #expect(Self.keys(page) == expected, "seed \(seed), round \(round), Timestamp \(micros) µs")
                    #expect((page.nextShardIterator == nil) == closed, "seed \(seed), round \(round), Timestamp \(micros) µs")
                    checked += 1
                }
                // The future, by a couple of milliseconds or more.
                let ahead = nowMicros + Int64.random(in: 2000...90_000_000, using: &random)
                #expect(throws: DynamoError.self) { try Self.iterator(database, arn, shard, at: Double(ahead) / 1_000_000) }
            }
        }
        #expect(checked > 150)
    }
}
