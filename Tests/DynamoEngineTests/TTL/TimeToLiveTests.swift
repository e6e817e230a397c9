import DynamoAPI
@testable import DynamoEngine
import Foundation
import Logging
import Testing

@Suite("Time to Live")
struct TimeToLiveTests {
    typealias Support = StreamTestSupport

    static func ttl(_ enabled: Bool, _ name: String = "expires") -> UpdateTimeToLiveInput {
        UpdateTimeToLiveInput(tableName: "Events", timeToLiveSpecification: TimeToLiveSpecification(enabled: enabled, attributeName: name))
    }

    @Test("UpdateTimeToLive follows DynamoDB's rules and messages")
    func updateRules() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        #expect(throws: DynamoError.validation("TimeToLive is already disabled")) { try database.updateTimeToLive(Self.ttl(false)) }
        _ = try database.updateTimeToLive(Self.ttl(true))
        #expect(throws: DynamoError.validation("TimeToLive is already enabled")) { try database.updateTimeToLive(Self.ttl(true)) }
        let different = DynamoError.validation("TimeToLive is active on a different AttributeName: current AttributeName is expires")
        #expect(throws: different) { try database.updateTimeToLive(Self.ttl(true, "other")) }
        #expect(throws: different) { try database.updateTimeToLive(Self.ttl(false, "other")) }
        #expect(throws: DynamoError.validation("Time to live has been modified multiple times within a fixed interval")) {
            try database.updateTimeToLive(Self.ttl(false))
        }
        try database.clock.advance(by: 3600)
        _ = try database.updateTimeToLive(Self.ttl(false))
        let description = try database.describeTimeToLive(DescribeTimeToLiveInput(tableName: "Events")).timeToLiveDescription
        #expect(description?.timeToLiveStatus == .disabled)
        #expect(description?.attributeName == nil)
    }

    @Test("the sweeper deletes expired items with their index entries and a REMOVE record naming the service")
    func sweep() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        _ = try database.updateTimeToLive(Self.ttl(true))
        let now = Support.start
        let items: [Item] = [
            ["pk": .s("past"), "g": .s("x"), "expires": .n(DynamoNumber(Int(now) - 10))],
            ["pk": .s("future"), "g": .s("x"), "expires": .n(DynamoNumber(Int(now) + 3600))],
            ["pk": .s("text"), "g": .s("x"), "expires": .s(String(Int(now) - 10))],
            ["pk": .s("ancient"), "g": .s("x"), "expires": .n(DynamoNumber(Int(now) - 6 * 365 * 24 * 3600))],
            ["pk": .s("none"), "g": .s("x")],
        ]
        for item in items { try Support.put(database, item) }
        // Expired but not yet swept: still reads as stored.
        #expect(try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s("past")])).json != nil)
        #expect(try database.sweepExpiredItems() == 1)
        #expect(try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s("past")])).json == nil)
        #expect(try database.describeTable(named: "Events").indexStatistics["byG"]?.itemCount == 4)
        try database.clock.advance(by: 3600)
        #expect(try database.sweepExpiredItems() == 1)
        #expect(try database.sweepExpiredItems() == 0)
        let records = try Support.consume(database, streamARN: Support.latestStreamARN(database))
        let removals = records.filter { $0.eventName == .remove }
        #expect(removals.map { $0.dynamodb?.keys?["pk"] } == [.s("past"), .s("future")])
        for record in removals {
            #expect(record.userIdentity == StreamsIdentity(principalId: "dynamodb.amazonaws.com", type: "Service"))
            #expect(record.dynamodb?.oldImage?["expires"] != nil)
        }
        #expect(records.filter { $0.eventName == .insert }.allSatisfy { $0.userIdentity == nil })
    }

    @Test("a sweep of many expired items deletes them all in batches")
    func manyExpired() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        _ = try database.updateTimeToLive(Self.ttl(true))
        let count = Database.sweepPageSize * 2 + 37
        for index in 0..<count {
            let expires = index % 3 == 0 ? Int(Support.start) + 10 : Int(Support.start) - 1
            try Support.put(database, ["pk": .s("k\(index)"), "expires": .n(DynamoNumber(expires))])
        }
        let expected = (0..<count).filter { $0 % 3 != 0 }.count
        #expect(try database.sweepExpiredItems() == expected)
        #expect(try database.describeTable(named: "Events").itemCount == Int64(count - expected))
    }
}

@Suite("Time to Live after a restart")
struct TimeToLiveRestartTests {
    typealias Support = StreamTestSupport

    @Test("the sweeper expires items of namespaces stored on disk that no request has opened since the restart")
    func sweepsUnopenedNamespaces() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ttl-restart-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for mode in [NamespaceMode.perRegion, .perAccessKey] {
            let path = "\(directory)/\(mode.rawValue)"
            do {
                let engine = try DynamoEngine(
                    storage: .directory(path), namespaceMode: mode, logger: .init(label: "test"),
                    clock: Support.clock())
                let database = try engine.database(accessKeyID: "AKIDRESTART", region: "eu-west-3")
                try Support.makeTable(database, view: nil)
                _ = try database.updateTimeToLive(TimeToLiveTests.ttl(true))
                try Support.put(database, ["pk": .s("soon"), "expires": .n(DynamoNumber(Int(Support.start) + 60))])
                try Support.put(database, ["pk": .s("later"), "expires": .n(DynamoNumber(Int(Support.start) + 7200))])
            }
            let clock = Support.clock()
            try clock.advance(by: 120)
            let restarted = try DynamoEngine(
                storage: .directory(path), namespaceMode: mode, logger: .init(label: "test"),
                clock: clock)
            #expect(restarted.openDatabases.isEmpty)
            #expect(try restarted.sweepExpiredItems() == 1, "\(mode)")
            let database = try restarted.database(accessKeyID: "AKIDRESTART", region: "eu-west-3")
            #expect(try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s("soon")])).json == nil)
            #expect(try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s("later")])).json != nil)
            #expect(restarted.openDatabases.count == 1)
        }
    }

    @Test(
        "only file names that give back a namespace's region are opened",
        arguments: [
            ("us-east-1", true), ("eu-central-2", true), ("us-gov-west-1", true), ("shared-local-instance", false),
            ("us-east", false), ("US-EAST-1", false), ("us--1", false), ("a-b-c", false),
        ])
    func regionNames(text: String, isRegion: Bool) {
        #expect(DynamoEngine.looksLikeRegion(text) == isRegion)
    }
}
