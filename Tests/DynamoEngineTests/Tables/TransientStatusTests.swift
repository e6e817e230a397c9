import DynamoAPI
@testable import DynamoEngine
import Testing

/// `-delayTransientStatuses`: DescribeTable keeps DynamoDB's transitional statuses for the
/// delay, measured on the server clock (moved here, never slept on).
@Suite("Transient statuses")
struct TransientStatusTests {
    /// A database whose clock stands still unless moved.
    static func database(delay: Double) throws -> Database {
        let database = try Database(
            path: nil, region: "us-east-1",
            clock: ServerClock(startingAt: 1_800_000_000, systemTime: { 0 }))
        database.transientStatuses.delay = delay
        return database
    }

    static func create(_ database: Database, _ name: String) throws {
        let json = """
            {"TableName": "\(name)", "BillingMode": "PAY_PER_REQUEST",
             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
             "GlobalSecondaryIndexes": [{"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                         "Projection": {"ProjectionType": "ALL"}}]}
            """
        _ = try database.createTable(CreateTableInput.decodeRequest(JSONValue(parsing: json)), now: database.clock.now())
    }

    static func update(_ database: Database, _ json: String) throws {
        _ = try database.updateTable(UpdateTableInput.decodeRequest(JSONValue(parsing: json)), now: database.clock.now())
    }

    static func indexStatus(_ snapshot: TableSnapshot, _ name: String) -> IndexStatus? {
        guard let index = snapshot.definition.globalIndexes.first(where: { $0.name == name }) else { return nil }
        return snapshot.indexStatus[name] ?? index.status
    }

    @Test("a new table is CREATING for the delay, then ACTIVE")
    func creating() throws {
        let database = try Self.database(delay: 5)
        try Self.create(database, "Orders")
        #expect(try database.describeTable(named: "Orders").status == .creating)
        try database.clock.advance(by: 4.9)
        #expect(try database.describeTable(named: "Orders").status == .creating)
        try database.clock.advance(by: 0.2)
        #expect(try database.describeTable(named: "Orders").status == .active)
    }

    @Test("without a delay every status is final at once")
    func noDelay() throws {
        let database = try Self.database(delay: 0)
        try Self.create(database, "Orders")
        #expect(try database.describeTable(named: "Orders").status == .active)
        _ = try database.deleteTable(named: "Orders")
        #expect(throws: DynamoError.tableNotFound()) { try database.describeTable(named: "Orders") }
    }

    @Test("an updated table is UPDATING, a deleted one DELETING and then gone")
    func updatingAndDeleting() throws {
        let database = try Self.database(delay: 5)
        try Self.create(database, "Orders")
        try database.clock.advance(by: 5)
        try Self.update(
            database,
            #"{"TableName": "Orders", "BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}, "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "ByG", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]}"#
        )
        #expect(try database.describeTable(named: "Orders").status == .updating)
        try database.clock.advance(by: 5)
        #expect(try database.describeTable(named: "Orders").status == .active)

        _ = try database.deleteTable(named: "Orders")
        let deleting = try database.describeTable(named: "Orders")
        #expect(deleting.status == .deleting)
        #expect(database.listTables(exclusiveStart: nil, limit: nil).names.isEmpty)
        try database.clock.advance(by: 5)
        #expect(throws: DynamoError.tableNotFound()) { try database.describeTable(named: "Orders") }
    }

    @Test("a new global index is CREATING after its backfill finished, a deleted one DELETING")
    func indexes() throws {
        let database = try Self.database(delay: 5)
        try Self.create(database, "Orders")
        try database.clock.advance(by: 5)
        try Self.update(
            database,
            #"{"TableName": "Orders", "AttributeDefinitions": [{"AttributeName": "h", "AttributeType": "N"}], "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "ByH", "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}"#
        )
        try database.runIndexWork(table: database.table(named: "Orders"), index: "ByH")
        #expect(database.tables["Orders"]?.index(named: "ByH")?.status == .active)
        let building = try database.describeTable(named: "Orders")
        #expect(Self.indexStatus(building, "ByH") == .creating)
        #expect(building.status == .active)
        try database.clock.advance(by: 5)
        #expect(Self.indexStatus(try database.describeTable(named: "Orders"), "ByH") == .active)

        try Self.update(database, #"{"TableName": "Orders", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "ByG"}}]}"#)
        try database.runIndexWork(table: database.table(named: "Orders"), index: "ByG")
        #expect(database.tables["Orders"]?.index(named: "ByG") == nil)
        let dropping = try database.describeTable(named: "Orders")
        #expect(Self.indexStatus(dropping, "ByG") == .deleting)
        #expect(dropping.status == .updating)
        try database.clock.advance(by: 5)
        let done = try database.describeTable(named: "Orders")
        #expect(Self.indexStatus(done, "ByG") == nil)
        #expect(done.status == .active)
    }
}
