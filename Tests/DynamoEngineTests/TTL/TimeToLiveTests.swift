import DynamoAPI
@testable import DynamoEngine
import Foundation
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
