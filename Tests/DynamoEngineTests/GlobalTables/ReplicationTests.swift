import DynamoAPI
@testable import DynamoEngine
import Logging
import Testing

/// Global tables: replicas are real tables in other regions' namespaces and converge on the
/// last write of every item.
@Suite struct ReplicationTests {
    static func engine(_ mode: NamespaceMode = .perRegion) throws -> DynamoEngine {
        try DynamoEngine(storage: .inMemory, namespaceMode: mode, logger: Logger(label: "test"))
    }

    static func addReplica(_ database: Database, region: String, table: String = "Things") throws -> ReplicaUpdateResult {
        try database.updateReplicas(
            [ReplicationGroupUpdate(create: CreateReplicationGroupMemberAction(regionName: region))],
            table: table, now: database.clock.now())
    }

    static func item(_ database: Database, _ key: String) throws -> Item? {
        let read = try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s(key)], consistentRead: true))
        return try read.json.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
    }

    @Test func aReplicaCopiesTheTableAndItsItemsAndStreams() throws {
        let engine = try Self.engine()
        let east = try engine.database(accessKeyID: nil, region: "us-east-1")
        try DatabaseTests.makeTable(east)
        _ = try east.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a")]))
        let result = try Self.addReplica(east, region: "us-west-2")
        #expect(result.statuses == ["us-west-2": .creating])
        #expect(result.definition.settings?.replication?.regions == ["us-east-1", "us-west-2"])
        #expect(result.definition.streamViewType == .newAndOldImages)
        let west = try engine.database(accessKeyID: nil, region: "us-west-2")
        let replica = try west.table(named: "Things")
        #expect(replica.keyAttributes == result.definition.keyAttributes)
        #expect(replica.tableID != result.definition.tableID)
        #expect(try Self.item(west, "a") == ["pk": .s("a")])
    }

    @Test func seededRandomWritesConvergeOnTheLastWriteInEveryRegion() throws {
        let engine = try Self.engine()
        let regions = ["us-east-1", "us-west-2", "eu-west-1"]
        let databases = try regions.map { try engine.database(accessKeyID: nil, region: $0) }
        try DatabaseTests.makeTable(databases[0])
        _ = try Self.addReplica(databases[0], region: regions[1])
        _ = try Self.addReplica(databases[0], region: regions[2])
        var random = SeededRandom(seed: 0x5eed_0016)
        var expected: [String: Item?] = [:]
        for step in 0..<300 {
            let database = databases[Int(random.next() % 3)]
            let key = "k\(random.next() % 8)"
            if random.next() % 4 == 0 {
                // A delete of an item this region has not received yet changes nothing and is not
                // replicated (as in DynamoDB): let deliveries catch up first so it deletes something.
                engine.replicationHub.serialized {}
                _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s(key)]))
                expected[key] = .some(nil)
            } else {
                let item: Item = ["pk": .s(key), "step": .n(DynamoNumber(step))]
                _ = try database.putItem(PutItemInput(tableName: "Things", item: item))
                expected[key] = item
            }
        }
        engine.replicationHub.serialized {}
        for database in databases {
            for (key, item) in expected {
                #expect(try Self.item(database, key) == item, "\(database.region) \(key)")
            }
        }
    }

    @Test func replicatedChangesAreNotSentBack() throws {
        let engine = try Self.engine()
        let east = try engine.database(accessKeyID: nil, region: "us-east-1")
        try DatabaseTests.makeTable(east)
        _ = try Self.addReplica(east, region: "us-west-2")
        _ = try east.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("x")]))
        engine.replicationHub.serialized {}
        // A later local write in the replica must not be undone by an echo of the first one.
        let west = try engine.database(accessKeyID: nil, region: "us-west-2")
        _ = try west.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("x")]))
        engine.replicationHub.serialized {}
        engine.replicationHub.serialized {}
        #expect(try Self.item(east, "x") == nil)
        #expect(try Self.item(west, "x") == nil)
    }

    @Test func deletingAReplicaDropsItsTableAndEndsReplication() throws {
        let engine = try Self.engine()
        let east = try engine.database(accessKeyID: nil, region: "us-east-1")
        try DatabaseTests.makeTable(east)
        _ = try Self.addReplica(east, region: "us-west-2")
        let result = try east.updateReplicas(
            [ReplicationGroupUpdate(delete: DeleteReplicationGroupMemberAction(regionName: "us-west-2"))],
            table: "Things", now: east.clock.now())
        #expect(result.statuses == ["us-west-2": .deleting])
        #expect(result.definition.settings?.replication == nil)
        let west = try engine.database(accessKeyID: nil, region: "us-west-2")
        #expect(throws: DynamoError.tableNotFound()) { try west.table(named: "Things") }
    }

    @Test func deleteTableOnAReplicaTakesItOutOfTheGroup() throws {
        let engine = try Self.engine()
        let east = try engine.database(accessKeyID: nil, region: "us-east-1")
        try DatabaseTests.makeTable(east)
        _ = try Self.addReplica(east, region: "us-west-2")
        _ = try Self.addReplica(east, region: "eu-west-1")
        _ = try engine.database(accessKeyID: nil, region: "eu-west-1").deleteTable(named: "Things")
        #expect(try east.table(named: "Things").settings?.replication?.regions == ["us-east-1", "us-west-2"])
        _ = try engine.database(accessKeyID: nil, region: "us-west-2").deleteTable(named: "Things")
        #expect(try east.table(named: "Things").settings?.replication == nil)
    }

    @Test func perAccessKeyReplicasStayWithTheirKey() throws {
        let engine = try Self.engine(.perAccessKey)
        let east = try engine.database(accessKeyID: "alice", region: "us-east-1")
        try DatabaseTests.makeTable(east)
        _ = try Self.addReplica(east, region: "us-west-2")
        #expect(try engine.database(accessKeyID: "alice", region: "us-west-2").table(named: "Things").name == "Things")
        #expect(throws: DynamoError.tableNotFound()) {
            try engine.database(accessKeyID: "bob", region: "us-west-2").table(named: "Things")
        }
    }

    @Test func sharedDatabaseRefusesReplicas() throws {
        let engine = try Self.engine(.shared)
        let database = try engine.database(accessKeyID: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        #expect(throws: DynamoError.self) { _ = try Self.addReplica(database, region: "us-west-2") }
    }
}
