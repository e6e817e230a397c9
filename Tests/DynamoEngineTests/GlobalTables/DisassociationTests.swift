import DynamoAPI
@testable import DynamoEngine
import Logging
import Testing

/// UpdateTable's `Disassociate` replica action and `DisassociationProtectionEnabled`.
@Suite struct DisassociationTests {
    typealias Replication = ReplicationTests

    static let disassociateEast = UpdateTableInput(
        tableName: "Things",
        replicaUpdates: [
            ReplicationGroupUpdate(
                disassociate: DisassociateReplicationGroupMemberAction(regionName: "us-east-1", disassociationMode: .waitForReplication))
        ])

    static func protection(_ enabled: Bool) -> UpdateTableInput {
        UpdateTableInput(tableName: "Things", disassociationProtectionEnabled: enabled)
    }

    static func description(_ database: Database) throws -> TableDescription {
        try database.describeTable(named: "Things").tableDescription
    }

    /// `Things` (with the global index `byG`) in us-east-1, replicated to `others`.
    static func globalTable(_ engine: DynamoEngine, others: [String]) throws -> [Database] {
        let east = try engine.database(accessKeyID: nil, region: "us-east-1")
        try StreamTestSupport.makeTable(east, name: "Things", view: nil)
        for region in others { _ = try Replication.addReplica(east, region: region) }
        return try [east] + others.map { try engine.database(accessKeyID: nil, region: $0) }
    }

    static func put(_ database: Database, _ key: String) throws {
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s(key), "g": .s("x")]))
    }

    @Test func protectionIsOnByDefaultForReplicasOnlyAndIsTheRequestsOnlyChange() throws {
        let engine = try Replication.engine()
        let databases = try Self.globalTable(engine, others: ["us-west-2"])
        let (east, west) = (databases[0], databases[1])
        #expect(try Self.description(east).disassociationProtectionEnabled == true)
        #expect(try Self.description(west).disassociationProtectionEnabled == true)
        #expect(throws: EngineMessages.replicaDisassociationProtected(definitionName: "Things", region: "us-east-1")) {
            try east.updateTable(Self.disassociateEast, now: east.clock.now())
        }
        var combined = Self.protection(false)
        combined.deletionProtectionEnabled = true
        #expect(throws: EngineMessages.disassociationProtectionOnlyOperation) { try east.updateTable(combined, now: east.clock.now()) }
        var withReplicas = Self.disassociateEast
        withReplicas.disassociationProtectionEnabled = false
        #expect(throws: EngineMessages.disassociationProtectionOnlyOperation) { try east.updateTable(withReplicas, now: east.clock.now()) }
        let answer = try east.updateTable(Self.protection(false), now: east.clock.now()).tableDescription
        #expect(answer.disassociationProtectionEnabled == false && answer.tableStatus == .active)
        #expect(try Self.description(east).disassociationProtectionEnabled == false)
        // Each replica has its own setting, independent of deletion protection.
        #expect(try Self.description(west).disassociationProtectionEnabled == true)
        #expect(try Self.description(east).deletionProtectionEnabled == false)
        _ = try east.updateTable(Self.protection(true), now: east.clock.now())
        #expect(try Self.description(east).disassociationProtectionEnabled == true)

        let alone = try engine.database(accessKeyID: nil, region: "eu-west-1")
        try DatabaseTests.makeTable(alone)
        #expect(try Self.description(alone).disassociationProtectionEnabled == nil)
        #expect(throws: EngineMessages.notAGlobalTableReplica(definitionName: "Things")) {
            try alone.updateTable(Self.protection(false), now: alone.clock.now())
        }
        var local = Self.disassociateEast
        local.replicaUpdates = [
            ReplicationGroupUpdate(disassociate: .init(regionName: "eu-west-1", disassociationMode: .waitForReplication))
        ]
        #expect(throws: EngineMessages.notAGlobalTableReplica(definitionName: "Things")) {
            try alone.updateTable(local, now: alone.clock.now())
        }
    }

    @Test func aDisassociateMustBeAloneAndNameTheLocalRegion() throws {
        let engine = try Replication.engine()
        let east = try Self.globalTable(engine, others: ["us-west-2"])[0]
        _ = try east.updateTable(Self.protection(false), now: east.clock.now())
        var twoUpdates = Self.disassociateEast
        twoUpdates.replicaUpdates! += [ReplicationGroupUpdate(create: CreateReplicationGroupMemberAction(regionName: "eu-west-1"))]
        var twoActions = Self.disassociateEast
        twoActions.replicaUpdates![0].delete = DeleteReplicationGroupMemberAction(regionName: "us-west-2")
        var withTableClass = Self.disassociateEast
        withTableClass.tableClass = .standardInfrequentAccess
        var withStream = Self.disassociateEast
        withStream.streamSpecification = StreamSpecification(streamEnabled: false)
        for input in [twoUpdates, twoActions, withTableClass, withStream] {
            #expect(throws: EngineMessages.disassociateOnlyOperation) { try east.updateTable(input, now: east.clock.now()) }
        }
        for other in ["us-west-2", "ap-south-1"] {
            var input = Self.disassociateEast
            input.replicaUpdates = [ReplicationGroupUpdate(disassociate: .init(regionName: other, disassociationMode: .waitForReplication))]
            #expect(throws: EngineMessages.disassociateOtherRegion(regionName: other, localRegion: "us-east-1")) {
                try east.updateTable(input, now: east.clock.now())
            }
        }
        // Nothing was changed by the refused requests.
        #expect(try Self.description(east).replicas?.map(\.regionName) == ["us-west-2"])
        #expect(try Self.description(east).tableClassSummary == nil)
    }

    @Test func twoReplicasEndAsTwoIndependentTablesThatKeepTheirItemsIndexesAndStreams() throws {
        let engine = try Replication.engine()
        let databases = try Self.globalTable(engine, others: ["us-west-2"])
        let (east, west) = (databases[0], databases[1])
        try Self.put(east, "before")
        _ = try east.updateTable(Self.protection(false), now: east.clock.now())
        // Not waited for: WAIT_FOR_REPLICATION delivers it before the replicas part.
        try Self.put(east, "pending")
        let answer = try east.updateTable(Self.disassociateEast, now: east.clock.now()).tableDescription
        #expect(answer.tableStatus == .updating)
        #expect(answer.replicas?.map(\.regionName) == ["us-west-2"])
        #expect(try Replication.item(west, "pending") != nil)

        for database in [east, west] {
            let description = try Self.description(database)
            #expect(description.tableStatus == .active)
            #expect(description.replicas == nil && description.globalTableVersion == nil)
            #expect(description.disassociationProtectionEnabled == nil)
            #expect(description.globalSecondaryIndexes?.map(\.indexName) == ["byG"])
            #expect(description.latestStreamArn != nil)
            #expect(description.tableArn == ResourceNames.tableARN(region: database.region, table: "Things"))
            #expect(try Replication.item(database, "before") != nil)
        }
        // Writes stay where they are made, both ways.
        try Self.put(east, "east-only")
        try Self.put(west, "west-only")
        _ = try west.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("before")]))
        engine.replicationHub.serialized {}
        #expect(try Replication.item(west, "east-only") == nil)
        #expect(try Replication.item(east, "west-only") == nil)
        #expect(try Replication.item(east, "before") != nil)
        let byG = try east.query(
            QueryInput(
                tableName: "Things", indexName: "byG", keyConditionExpression: "g = :x", expressionAttributeValues: [":x": .s("x")]))
        #expect(byG.page.items.count == 3)
        // Neither is a replica now: neither can be disassociated again.
        #expect(throws: EngineMessages.notAGlobalTableReplica(definitionName: "Things")) {
            try east.updateTable(Self.disassociateEast, now: east.clock.now())
        }
    }

    @Test func withThreeReplicasTheOthersGoOnAsAGlobalTable() throws {
        let engine = try Replication.engine()
        let databases = try Self.globalTable(engine, others: ["us-west-2", "eu-west-1"])
        let (east, west, europe) = (databases[0], databases[1], databases[2])
        _ = try west.updateTable(UpdateTableInput(tableName: "Things", disassociationProtectionEnabled: false), now: west.clock.now())
        var input = Self.disassociateEast
        input.replicaUpdates = [ReplicationGroupUpdate(disassociate: .init(regionName: "us-west-2", disassociationMode: .waitForReplication))]
        let answer = try west.updateTable(input, now: west.clock.now()).tableDescription
        #expect(answer.replicas?.compactMap(\.regionName).sorted() == ["eu-west-1", "us-east-1"])
        #expect(try Self.description(west).replicas == nil)
        #expect(try Self.description(east).replicas?.map(\.regionName) == ["eu-west-1"])
        #expect(try Self.description(europe).replicas?.map(\.regionName) == ["us-east-1"])
        #expect(try Self.description(east).disassociationProtectionEnabled == true)
        try Self.put(east, "e")
        try Self.put(west, "w")
        try Self.put(europe, "u")
        engine.replicationHub.serialized {}
        #expect(try Replication.item(europe, "e") != nil && Replication.item(east, "u") != nil)
        for key in ["e", "u"] { #expect(try Replication.item(west, key) == nil) }
        for database in [east, europe] { #expect(try Replication.item(database, "w") == nil) }
    }

    @Test func aReplicaOfAVersion2017GlobalTableIsRefused() throws {
        let engine = try Replication.engine()
        let east = try engine.database(accessKeyID: nil, region: "us-east-1")
        try DatabaseTests.makeTable(east)
        _ = try east.updateDefinition(named: "Things") { definition in
            var settings = definition.controlSettings
            settings.replication = ReplicationGroup(version: GlobalTableVersion.legacy, regions: ["us-east-1", "us-west-2"], createdAt: 1)
            definition.controlSettings = settings
        }
        #expect(try Self.description(east).disassociationProtectionEnabled == nil)
        #expect(throws: EngineMessages.legacyGlobalTableDisassociation(definitionName: "Things")) {
            try east.updateTable(Self.protection(false), now: east.clock.now())
        }
        #expect(throws: EngineMessages.legacyGlobalTableDisassociation(definitionName: "Things")) {
            try east.updateTable(Self.disassociateEast, now: east.clock.now())
        }
    }
}
