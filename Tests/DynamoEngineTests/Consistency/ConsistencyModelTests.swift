import DynamoAPI
@testable import DynamoEngine
import Testing

/// `exact` never serves a stale answer; `service` serves them only within its bounds; the same
/// seed gives the same answers (see ``ConsistencyWorkload`` for what every step checks).
@Suite struct ConsistencyModelTests {
    static let service = ConsistencySettings(mode: .service, seed: 7)

    @Test("exact mode answers every read with the last write", arguments: [1, 2, 3] as [UInt64])
    func exactIsNeverStale(workloadSeed: UInt64) throws {
        let workload = try ConsistencyWorkload(settings: .exact, workloadSeed: workloadSeed)
        for _ in 0..<60 { try workload.step() }
        #expect(!workload.database.consistency.isActive)
        #expect(workload.staleAnswers == 0)
        #expect(workload.database.consistency.staleAnswerCount == 0)
    }

    @Test("service mode is stale only within its window, never for strongly consistent reads", arguments: [1, 2, 3] as [UInt64])
    func serviceIsStaleWithinBounds(workloadSeed: UInt64) throws {
        let workload = try ConsistencyWorkload(settings: Self.service, workloadSeed: workloadSeed)
        for _ in 0..<60 { try workload.step() }
        #expect(workload.database.consistency.isActive)
        // The model did lag (else the bounds above prove nothing), and counted what it served.
        #expect(workload.staleAnswers > 10)
        #expect(workload.database.consistency.staleAnswerCount >= workload.staleAnswers)
    }

    @Test("after settle, and once the clock has passed the window, every read is exact")
    func settleAndTheClockEndTheLag() throws {
        let workload = try ConsistencyWorkload(settings: Self.service, workloadSeed: 4)
        for _ in 0..<30 { try workload.write() }
        #expect(workload.database.consistency.pending(now: workload.now).isEmpty == false)
        let before = workload.staleAnswers
        _ = workload.database.consistency.settle(now: workload.now)
        #expect(workload.database.consistency.pending(now: workload.now).isEmpty)
        try workload.readAll()
        #expect(workload.staleAnswers == before)

        for _ in 0..<30 { try workload.write() }
        try workload.clock.advance(by: Self.service.window)
        #expect(workload.database.consistency.pending(now: workload.now).isEmpty)
        try workload.readAll()
        #expect(workload.staleAnswers == before)
    }

    @Test("the same seed gives the same answers; another seed other ones")
    func sameSeedSameAnswers() throws {
        func transcript(seed: UInt64) throws -> [String] {
            let workload = try ConsistencyWorkload(settings: ConsistencySettings(mode: .service, seed: seed), workloadSeed: 9)
            for _ in 0..<40 { try workload.step() }
            return workload.transcript
        }
        let first = try transcript(seed: 11)
        let second = try transcript(seed: 11)
        let difference = zip(first, second).first { $0 != $1 }
        #expect(second == first, "first difference: \(String(describing: difference))")
        #expect(try transcript(seed: 12) != first)
    }

    @Test("a read right after a write to a global index misses it; ConsistentRead on the table sees it")
    func readAfterWriteOnAnIndex() throws {
        let (database, clock) = try StreamTestSupport.database(ConsistencySettings(mode: .service, seed: 1, staleProbability: 1))
        try StreamTestSupport.put(database, ["pk": .s("a"), "g": .s("x")])
        let query = QueryInput(
            tableName: "Events", indexName: "byG", keyConditionExpression: "g = :g", expressionAttributeValues: [":g": .s("x")])
        #expect(try database.query(query).page.items.isEmpty)
        #expect(try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s("a")])).json == nil)
        #expect(try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s("a")], consistentRead: true)).json != nil)
        // A conditional write judges the item as it is, not as an eventually consistent read saw it.
        #expect(throws: DynamoError.self) {
            try database.putItem(
                PutItemInput(tableName: "Events", item: ["pk": .s("a")], conditionExpression: "attribute_not_exists(pk)"))
        }
        try clock.advance(by: 1)
        #expect(try database.query(query).page.items.count == 1)
    }

    @Test("a deleted item stays visible to eventually consistent reads within the window, by key and in a scan")
    func deletedItemLingers() throws {
        let clock = StreamTestSupport.clock()
        let database = try StreamTestSupport.database(clock: clock)
        try StreamTestSupport.makeTable(database, view: nil)
        try StreamTestSupport.put(database, ["pk": .s("a"), "g": .s("x")])
        database.consistency.configure(ConsistencySettings(mode: .service, seed: 1, staleProbability: 1))
        _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s("a")]))
        let read = GetItemInput(tableName: "Events", key: ["pk": .s("a")])
        let expected = try AttributeValue.decodeItem(bytes: ItemJSON.encode(["pk": .s("a"), "g": .s("x")]))
        #expect(try database.getItem(read).json.map { try AttributeValue.decodeItem(bytes: $0) } == expected)
        #expect(try database.scan(ScanInput(tableName: "Events")).page.items.count == 1)
        #expect(
            try database.query(
                QueryInput(
                    tableName: "Events", indexName: "byG", keyConditionExpression: "g = :g",
                    expressionAttributeValues: [":g": .s("x")])
            ).page.items.count == 1)
        #expect(try database.scan(ScanInput(tableName: "Events", consistentRead: true)).page.items.isEmpty)
        try clock.advance(by: 1)
        #expect(try database.getItem(read).json == nil)
        #expect(try database.scan(ScanInput(tableName: "Events")).page.items.isEmpty)
    }

    @Test("a table set exact is exact in a service namespace, and back")
    func perTableOverride() throws {
        let workload = try ConsistencyWorkload(settings: Self.service, workloadSeed: 5)
        workload.database.consistency.setMode(.exact, table: "Events")
        #expect(workload.database.consistency.mode(of: "Events") == .exact)
        for _ in 0..<20 { try workload.write() }
        #expect(workload.database.consistency.pending(now: workload.now).isEmpty)
        workload.database.consistency.setMode(nil, table: "Events")
        #expect(workload.database.consistency.mode(of: "Events") == .service)
        for _ in 0..<20 { try workload.write() }
        #expect(!workload.database.consistency.pending(now: workload.now).isEmpty)
    }
}
