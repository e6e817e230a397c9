import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// UpdateTable at the engine: throughput, global index and stream changes, what is stored
/// afterwards, and the refusals with DynamoDB's messages.
@Suite struct UpdateTableTests {
    static let now: Double = 1_700_000_000

    static func update(_ body: String) throws -> UpdateTableInput {
        try UpdateTableInput.decodeRequest(JSONValue(parsing: body))
    }

    /// `Things` (pk S), provisioned at 5 read and 5 write units, with the global index `byColor`
    /// (color S) at 1 and 1.
    static func provisioned() throws -> Database {
        let database = try Database(path: nil, region: "us-east-1")
        let body = """
            {"TableName":"Things","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
             "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"color","AttributeType":"S"}],
             "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5},
             "GlobalSecondaryIndexes":[{"IndexName":"byColor","KeySchema":[{"AttributeName":"color","KeyType":"HASH"}],
               "Projection":{"ProjectionType":"KEYS_ONLY"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}]}
            """
        _ = try database.createTable(CreateTableInput.decodeRequest(JSONValue(parsing: body)), now: now)
        return database
    }

    /// Waits (up to 30 s) until no global index of `Things` is CREATING or DELETING.
    static func settle(_ database: Database) throws {
        let deadline = Date().addingTimeInterval(30)
        while try database.table(named: "Things").globalIndexes.contains(where: { $0.status != .active }) {
            try #require(Date() < deadline, "the index work did not finish in 30 s")
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    @Test("throughput changes are stored with their increase and decrease times")
    func throughput() throws {
        let database = try Self.provisioned()
        let raised = try database.updateTable(
            Self.update(#"{"TableName":"Things","ProvisionedThroughput":{"ReadCapacityUnits":10,"WriteCapacityUnits":5}}"#),
            now: Self.now + 10)
        #expect(raised.status == .updating)
        var stored = try database.table(named: "Things").throughput
        #expect(stored.readCapacityUnits == 10 && stored.writeCapacityUnits == 5)
        #expect(stored.lastIncreaseDateTime == Self.now + 10 && stored.lastDecreaseDateTime == nil)
        _ = try database.updateTable(
            Self.update(#"{"TableName":"Things","ProvisionedThroughput":{"ReadCapacityUnits":10,"WriteCapacityUnits":2}}"#),
            now: Self.now + 20)
        stored = try database.table(named: "Things").throughput
        #expect(stored.writeCapacityUnits == 2 && stored.lastDecreaseDateTime == Self.now + 20 && stored.numberOfDecreasesToday == 1)
        #expect(stored.lastIncreaseDateTime == Self.now + 10)
        // An index's throughput changes through its Update action.
        _ = try database.updateTable(
            Self.update(
                #"{"TableName":"Things","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byColor","ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":1}}}]}"#
            ),
            now: Self.now + 30)
        #expect(try database.table(named: "Things").index(named: "byColor")?.throughput?.readCapacityUnits == 3)
    }

    @Test("throughput equal to the current one is refused with both values in the message")
    func unchangedThroughput() throws {
        let database = try Self.provisioned()
        #expect(
            throws: DynamoError.validation(
                "The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
            )
        ) {
            try database.updateTable(
                Self.update(#"{"TableName":"Things","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}"#), now: Self.now)
        }
        #expect(
            throws: DynamoError.validation(
                "The provisioned throughput for the index byColor will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for index byColor: 1. Requested ReadCapacityUnits: 1. Current WriteCapacityUnits provisioned for index byColor: 1. Requested WriteCapacityUnits: 1. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
            )
        ) {
            try database.updateTable(
                Self.update(
                    #"{"TableName":"Things","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byColor","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}]}"#
                ),
                now: Self.now)
        }
        #expect(try database.table(named: "Things").throughput.lastDecreaseDateTime == nil)
    }

    @Test("a created index is CREATING, then ACTIVE and holding the items; a deleted one goes with its storage")
    func createAndDeleteIndex() throws {
        let database = try Self.provisioned()
        for number in 0..<300 {
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("k\(number)"), "size": .n(DynamoNumber(number % 3))]))
        }
        let created = try database.updateTable(
            Self.update(
                #"{"TableName":"Things","AttributeDefinitions":[{"AttributeName":"size","AttributeType":"N"}],"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"bySize","KeySchema":[{"AttributeName":"size","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}]}"#
            ),
            now: Self.now)
        #expect(created.definition.index(named: "bySize")?.status == .creating)
        #expect(created.definition.attributeDefinitions.contains(KeyAttribute(name: "size", type: .number)))
        try Self.settle(database)
        #expect(try database.describeTable(named: "Things").indexStatistics["bySize"]?.itemCount == 300)
        let deleted = try database.updateTable(
            Self.update(#"{"TableName":"Things","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"bySize"}}]}"#), now: Self.now)
        #expect(deleted.definition.index(named: "bySize")?.status == .deleting)
        try Self.settle(database)
        let table = try database.table(named: "Things")
        #expect(table.index(named: "bySize") == nil)
        // The attribute definition only the deleted index used goes with it.
        #expect(!table.attributeDefinitions.contains(where: { $0.name == "size" }))
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("index changes refused: one at a time, one action per update, not beside throughput or stream changes")
    func indexRefusals() throws {
        let database = try Self.provisioned()
        let create =
            #"{"Create":{"IndexName":"bySize","KeySchema":[{"AttributeName":"size","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}"#
        let definitions = #""AttributeDefinitions":[{"AttributeName":"size","AttributeType":"N"}]"#
        #expect(
            throws: DynamoError(.limitExceeded, "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
        ) {
            try database.updateTable(
                Self.update(#"{"TableName":"Things",\#(definitions),"GlobalSecondaryIndexUpdates":[\#(create),{"Delete":{"IndexName":"byColor"}}]}"#),
                now: Self.now)
        }
        #expect(
            throws: DynamoError.validation("One or more parameter values were invalid: You cannot create or delete index while updating table IOPS")
        ) {
            try database.updateTable(
                Self.update(
                    #"{"TableName":"Things",\#(definitions),"ProvisionedThroughput":{"ReadCapacityUnits":6,"WriteCapacityUnits":6},"GlobalSecondaryIndexUpdates":[\#(create)]}"#
                ),
                now: Self.now)
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: You cannot create or delete index while changing stream status")
        ) {
            try database.updateTable(
                Self.update(
                    #"{"TableName":"Things",\#(definitions),"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},"GlobalSecondaryIndexUpdates":[\#(create)]}"#
                ),
                now: Self.now)
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: Only one global secondary index update per index is allowed simultaneously. Index: byColor"
            )
        ) {
            try database.updateTable(
                Self.update(
                    #"{"TableName":"Things","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byColor"}},{"Update":{"IndexName":"byColor","ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":2}}}]}"#
                ),
                now: Self.now)
        }
        #expect(throws: DynamoError(.resourceNotFound, "Requested resource not found: Index missing for table Things")) {
            try database.updateTable(
                Self.update(#"{"TableName":"Things","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"missing"}}]}"#), now: Self.now)
        }
        // Nothing of the refused requests is stored.
        let table = try database.table(named: "Things")
        #expect(table.globalIndexes.map(\.name) == ["byColor"] && table.globalIndexes[0].status == .active)
        #expect(table.throughput.readCapacityUnits == 5 && table.streamViewType == nil)
    }

    @Test("a DELETING index refuses another change with the table's and index's names")
    func deletingIndex() throws {
        let database = try Self.provisioned()
        // Marked DELETING without its drop running, so the refusal is certain.
        _ = try database.updateDefinition(named: "Things") { definition in
            definition.globalIndexes[0].status = .deleting
        }
        #expect(
            throws: DynamoError(
                .resourceInUse, "Attempt to change a resource which is still in use: Index is being deleted. Table: Things Index: byColor")
        ) {
            try database.updateTable(
                Self.update(
                    #"{"TableName":"Things","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byColor","ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":2}}}]}"#
                ),
                now: Self.now)
        }
    }

    @Test("a stream is enabled with its view type and label, and disabled; redundant changes are refused")
    func streams() throws {
        let database = try Self.provisioned()
        #expect(
            throws: DynamoError.validation("One or more parameter values were invalid: If stream is being enabled then UpdateViewType is required")
        ) {
            try database.updateTable(Self.update(#"{"TableName":"Things","StreamSpecification":{"StreamEnabled":true}}"#), now: Self.now)
        }
        #expect(throws: DynamoError.validation("Table has no stream to disable: TableName: Things")) {
            try database.updateTable(Self.update(#"{"TableName":"Things","StreamSpecification":{"StreamEnabled":false}}"#), now: Self.now)
        }
        let enabled = try database.updateTable(
            Self.update(#"{"TableName":"Things","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}"#), now: Self.now)
        #expect(enabled.definition.streamViewType?.rawValue == "NEW_IMAGE")
        let label = try #require(try database.table(named: "Things").streamLabel)
        #expect(throws: DynamoError.validation("Table already has an enabled stream: TableName: Things")) {
            try database.updateTable(
                Self.update(#"{"TableName":"Things","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}"#), now: Self.now)
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: If stream is being disabled, then UpdateViewType must not be specified")
        ) {
            try database.updateTable(
                Self.update(#"{"TableName":"Things","StreamSpecification":{"StreamEnabled":false,"StreamViewType":"KEYS_ONLY"}}"#), now: Self.now)
        }
        _ = try database.updateTable(Self.update(#"{"TableName":"Things","StreamSpecification":{"StreamEnabled":false}}"#), now: Self.now + 1)
        let disabled = try database.table(named: "Things")
        #expect(disabled.streamViewType == nil)
        // The label stays: the ended stream is still readable for 24 hours.
        #expect(disabled.streamLabel == label)
    }

    @Test("a request changing nothing, an empty index update list, or throughput on PAY_PER_REQUEST is refused")
    func requestRefusals() throws {
        let database = try Self.provisioned()
        #expect(
            throws: DynamoError.validation(
                "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required"
            )
        ) {
            try database.updateTable(Self.update(#"{"TableName":"Things"}"#), now: Self.now)
        }
        var empty = try Self.update(#"{"TableName":"Things","BillingMode":"PROVISIONED"}"#)
        empty.globalSecondaryIndexUpdates = []
        #expect(throws: DynamoError.validation("One or more parameter values were invalid: List of GlobalSecondaryIndexUpdates is empty")) {
            try database.updateTable(empty, now: Self.now)
        }
        #expect(
            throws: DynamoError.validation(
                "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"
            )
        ) {
            try database.updateTable(
                Self.update(
                    #"{"TableName":"Things","BillingMode":"PAY_PER_REQUEST","ProvisionedThroughput":{"ReadCapacityUnits":6,"WriteCapacityUnits":6}}"#),
                now: Self.now)
        }
        #expect(try database.table(named: "Things").billingMode == .provisioned)
        #expect(throws: DynamoError.tableNotFound()) {
            try database.updateTable(Self.update(#"{"TableName":"Missing","BillingMode":"PAY_PER_REQUEST"}"#), now: Self.now)
        }
    }

    @Test("switching to PAY_PER_REQUEST clears the table's and indexes' throughput")
    func switchToOnDemand() throws {
        let database = try Self.provisioned()
        _ = try database.updateTable(Self.update(#"{"TableName":"Things","BillingMode":"PAY_PER_REQUEST"}"#), now: Self.now + 5)
        let table = try database.table(named: "Things")
        #expect(table.billingMode == .payPerRequest && table.billingModeLastUpdate == Self.now + 5)
        #expect(table.throughput.readCapacityUnits == 0 && table.throughput.writeCapacityUnits == 0)
        #expect(table.index(named: "byColor")?.throughput == nil)
    }
}
