import DynamoAPI
@testable import DynamoEngine
@testable import DynamoServer
import Logging
import Testing

/// `--throttle`'s per-partition limits on a clock that moves only when the test says: one
/// partition key value gets DynamoDB's 1,000 write / 3,000 read units a second, however much the
/// table has, and other keys are not held up by a hot one.
struct PartitionThrottleTests {
    /// An on-demand table `Hot` (40,000 units a second: only the partition limit can bite).
    private static func database() throws -> (DynamoEngine, Database) {
        let engine = try DynamoEngine(storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"))
        let database = try engine.database(accessKeyID: nil, region: "us-east-1")
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S"))],
                tableName: "Hot", keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)],
                billingMode: .init(rawValue: "PAY_PER_REQUEST")), now: database.clock.now())
        return (engine, database)
    }

    /// Requests on `key` at `now`, each consuming `units`, until one is throttled: how many ran.
    private static func untilThrottled(
        _ throttle: CapacityThrottle, _ database: Database, operation: String,
        key: String, units: Double, now: Double
    ) throws -> (Int, DynamoError) {
        let touches = OperationTouches.item(["pk": .s(key)], table: "Hot")
        let capacity: OperationTouches.Capacity = operation == "PutItem" ? .writes : .reads
        for accepted in 0..<10_000 {
            do {
                try throttle.run(touches, capacity: capacity, database: database, now: now) {
                    CapacityRecorder.current?.record(ConsumedUnits(table: units), table: "Hot")
                }
            } catch let error as DynamoError {
                return (accepted, error)
            }
        }
        Issue.record("never throttled")
        return (0, DynamoError(.validation))
    }

    @Test func aHotKeyGetsAThousandWriteUnitsASecond() throws {
        let (engine, database) = try Self.database()
        let throttle = CapacityThrottle()
        let start = 1_000_000.0
        #expect(try Self.untilThrottled(throttle, database, operation: "PutItem", key: "hot", units: 100, now: start).0 == 10)
        var accepted = 0
        for step in 1...20 {
            accepted += try Self.untilThrottled(
                throttle, database, operation: "PutItem", key: "hot", units: 100,
                now: start + Double(step) / 2
            ).0
        }
        let units = Double(accepted * 100)
        #expect(abs(units - 10_000) <= 1_000, "\(units) units on one key in 10 s")
        let (_, error) = try Self.untilThrottled(
            throttle, database, operation: "PutItem", key: "hot", units: 100,
            now: start + 10)
        #expect(error.code == .throttling)
        #expect(error.throttlingReasons?.map(\.reason) == ["TableWriteKeyRangeThroughputExceeded"])
        // Another key, at the same instant, has its own partition's second of capacity.
        #expect(
            try Self.untilThrottled(
                throttle, database, operation: "PutItem", key: "cold", units: 100,
                now: start + 10
            ).0 == 10)
        _ = engine
    }

    @Test func aHotKeyGetsThreeThousandReadUnitsASecond() throws {
        let (engine, database) = try Self.database()
        let throttle = CapacityThrottle()
        let (reads, error) = try Self.untilThrottled(
            throttle, database, operation: "GetItem", key: "hot", units: 96,
            now: 2_000_000)
        #expect(reads == 32) // 3,000 units at 96 a read: 31 leave 24, the 32nd is admitted on them
        #expect(error.throttlingReasons?.map(\.reason) == ["TableReadKeyRangeThroughputExceeded"])
        #expect(
            try Self.untilThrottled(
                throttle, database, operation: "GetItem", key: "hot", units: 96,
                now: 2_000_001
            ).0 == 31)
        _ = engine
    }
}
