import DynamoAPI
@testable import DynamoEngine
import Logging
import Synchronization
import Testing

/// The `service` model's delays beside reads: stream records, TTL deletions, statuses.
@Suite struct ConsistencyDelaysTests {
    typealias Support = StreamTestSupport

    static func sequenceNumbers(_ records: [StreamsRecord]) -> [String] {
        records.compactMap { $0.dynamodb?.sequenceNumber }
    }

    @Test("stream records are readable after their delay, in order; at once in exact mode", arguments: [ConsistencyMode.exact, .service])
    func streamRecordsLag(mode: ConsistencyMode) throws {
        let (database, clock) = try Support.database(ConsistencySettings(mode: mode, seed: 3), view: .newAndOldImages)
        for index in 0..<20 { try Support.put(database, ["pk": .s("k\(index)"), "g": .s("x")]) }
        let arn = try Support.latestStreamARN(database)
        let early = try Support.consume(database, streamARN: arn)
        let written = 20
        if mode == .exact {
            #expect(early.count == written)
            #expect(try database.consistencyPending(now: clock.now()).isEmpty)
        } else {
            // Some wait; those read come first, in order, and none is read before its time.
            #expect(early.count < written)
            // The report counts those still waiting: at least the one the reader stopped at.
            let waiting = try #require(try database.consistencyPending(now: clock.now()).first { $0.table == "Events" })
            #expect(waiting.streamRecords >= 1 && waiting.streamRecords <= written - early.count)
            #expect((waiting.settlesAt ?? .infinity) <= clock.now() + 1)
        }
        try clock.advance(by: 1)
        #expect(try database.consistencyPending(now: clock.now()).allSatisfy { $0.streamRecords == 0 })
        let all = try Support.consume(database, streamARN: arn)
        #expect(all.count == written)
        #expect(Array(Self.sequenceNumbers(all).prefix(early.count)) == Self.sequenceNumbers(early))
    }

    @Test("settle makes every stream record readable at once")
    func settleReleasesStreamRecords() throws {
        let (database, _) = try Support.database(ConsistencySettings(mode: .service, seed: 3), view: .newAndOldImages)
        for index in 0..<20 { try Support.put(database, ["pk": .s("k\(index)"), "g": .s("x")]) }
        database.consistency.settle(now: database.clock.now())
        #expect(try Support.consume(database, streamARN: Support.latestStreamARN(database)).count == 20)
    }

    @Test("TTL deletes an item some time after it expires, never before, within the delay", arguments: [ConsistencyMode.exact, .service])
    func timeToLiveLags(mode: ConsistencyMode) throws {
        let (database, clock) = try Support.database(ConsistencySettings(mode: mode, seed: 5, ttlDelay: 60))
        try ExpiryIndexTests.enable(database)
        let expiry = Int(Support.start) + 10
        for index in 0..<30 { try Support.put(database, ExpiryIndexTests.item("k\(index)", ExpiryIndexTests.n(expiry))) }
        #expect(try database.sweepExpiredItems() == 0)
        try clock.advance(by: 10)
        let atExpiry = try database.sweepExpiredItems()
        try clock.advance(by: 30)
        let halfway = try database.sweepExpiredItems()
        try clock.advance(by: 30)
        let after = try database.sweepExpiredItems()
        if mode == .exact {
            #expect([atExpiry, halfway, after] == [30, 0, 0])
        } else {
            #expect(atExpiry < 30)
            #expect(halfway > 0)
            #expect(atExpiry + halfway + after == 30)
        }
    }

    @Test("settle makes every TTL deletion due")
    func settleMakesExpiriesDue() throws {
        let (database, clock) = try Support.database(ConsistencySettings(mode: .service, seed: 5, ttlDelay: 3600))
        try ExpiryIndexTests.enable(database)
        for index in 0..<10 { try Support.put(database, ExpiryIndexTests.item("k\(index)", ExpiryIndexTests.n(Int(Support.start) - 1))) }
        let first = try database.sweepExpiredItems()
        #expect(first < 10)
        database.consistency.settle(now: clock.now())
        #expect(try database.sweepExpiredItems() == 10 - first)
        #expect(try database.scan(ScanInput(tableName: "Events", consistentRead: true)).page.items.isEmpty)
    }

    @Test("a settle reaches namespaces opened after it: a restarted server holds back no stream record from before")
    func settleReachesNamespacesOpenedLater() throws {
        try DurabilityTests.withDirectory { directory in
            let clock = Support.clock()
            let settings = ConsistencySettings(mode: .service, seed: 3, window: 3600, statusDelay: 0)
            func engine() throws -> DynamoEngine {
                try DynamoEngine(
                    storage: .directory(directory), namespaceMode: .perRegion, logger: Logger(label: "test"), clock: clock,
                    consistency: settings)
            }
            let first = try engine()
            let database = try first.database(accessKeyID: nil, region: "us-east-1")
            try Support.makeTable(database)
            for index in 0..<20 { try Support.put(database, ["pk": .s("k\(index)")]) }
            #expect(try Support.consume(database, streamARN: Support.latestStreamARN(database)).count < 20)
            first.close()

            // The restarted engine: settled before its namespace is opened by a request.
            let restarted = try engine()
            defer { restarted.close() }
            _ = try restarted.settleConsistency()
            let reopened = try restarted.database(accessKeyID: nil, region: "us-east-1")
            #expect(try Support.consume(reopened, streamARN: Support.latestStreamARN(reopened)).count == 20)
        }
    }

    @Test("statuses in transition take the status delay in service mode; settle ends them")
    func statusesTakeTime() throws {
        let clock = Support.clock()
        let engine = try DynamoEngine(
            storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"), clock: clock,
            consistency: ConsistencySettings(mode: .service, statusDelay: 5))
        let database = try engine.database(accessKeyID: nil, region: "us-east-1")
        try Support.makeTable(database)
        #expect(try database.describeTable(named: "Events").status == .creating)
        try clock.advance(by: 5)
        #expect(try database.describeTable(named: "Events").status == .active)
        _ = try database.updateTable(
            UpdateTableInput(tableName: "Events", tableClass: .init(rawValue: "STANDARD_INFREQUENT_ACCESS")),
            now: clock.now())
        #expect(try database.describeTable(named: "Events").status == .updating)
        _ = try engine.settleConsistency()
        #expect(try database.describeTable(named: "Events").status == .active)

        let exact = try DynamoEngine(storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"), clock: clock)
        let exactDatabase = try exact.database(accessKeyID: nil, region: "us-east-1")
        try Support.makeTable(exactDatabase)
        #expect(try exactDatabase.describeTable(named: "Events").status == .active)
    }
}

/// Kinesis streaming destinations in `service` mode: records reach the sink after their delay,
/// in write order.
@Suite struct ConsistencyKinesisTests {
    static func destination(_ mode: ConsistencyMode) throws -> (Database, KinesisRecordTests.RecordingSink, ServerClockTests.FakeSystemTime) {
        let time = ControlSettingsTests.FakeTime()
        let database = try ControlSettingsTests.database(time)
        // A window of an hour: the sink's timer, which reads this clock, never ends a lag here.
        database.consistency.configure(ConsistencySettings(mode: mode, seed: 2, window: 3600))
        let sink = KinesisRecordTests.RecordingSink()
        database.kinesis.sink = sink
        _ = try database.enableKinesisStreamingDestination(
            KinesisStreamingDestinationInput(tableName: "Things", streamArn: KinesisRecordTests.stream))
        time.tick(1)
        for index in 0..<5 { _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("k\(index)")])) }
        return (database, sink, time)
    }

    static func keys(_ sink: KinesisRecordTests.RecordingSink) throws -> [String] {
        try sink.records.withLock { $0 }.map { record in
            let body = try #require(try KinesisRecordTests.json(record)["dynamodb"] as? [String: Any])
            return try #require((body["Keys"] as? [String: [String: String]])?["pk"]?["S"])
        }
    }

    @Test func exactSendsAtOnce() throws {
        let (_, sink, _) = try Self.destination(.exact)
        #expect(try Self.keys(sink) == ["k0", "k1", "k2", "k3", "k4"])
    }

    @Test func serviceHoldsUntilTheDelayHasPassed() throws {
        let (database, sink, _) = try Self.destination(.service)
        #expect(try Self.keys(sink).isEmpty)
        #expect(database.consistency.kinesis.heldCount == 5)
        database.consistency.kinesis.release(upTo: database.clock.now() + 3600)
        #expect(try Self.keys(sink) == ["k0", "k1", "k2", "k3", "k4"])
    }

    @Test func settleSendsEverythingHeld() throws {
        let (database, sink, _) = try Self.destination(.service)
        database.consistency.settle(now: database.clock.now())
        #expect(try Self.keys(sink) == ["k0", "k1", "k2", "k3", "k4"])
        #expect(database.consistency.kinesis.heldCount == 0)
    }
}
