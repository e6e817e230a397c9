import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// A seeded random workload on a TTL table (puts, updates, deletes, batches with TTL values of
/// every kind: due, future, at the five-year horizon, ancient, not a Number, absent; clock
/// moves; TTL turned off and on) where each sweep must delete exactly the items a brute-force
/// look at every item says have expired.
@Suite("TTL sweep against a model")
struct ExpirySweepModelTests {
    typealias Support = StreamTestSupport
    typealias Seeded = StreamWorkloadTests.Seeded

    static let horizon: Double = 5 * 365 * 24 * 3600

    /// Brute force: every item whose `expires` is a Number of seconds in `[now - 5 years, now]`.
    static func expired(_ items: [String: Item], now: Double, enabled: Bool) -> Set<String> {
        guard enabled else { return [] }
        return Set(
            items.compactMap { key, item -> String? in
                guard case .n(let number)? = item["expires"], let seconds = Double(number.description) else { return nil }
                return seconds <= now && seconds >= now - horizon ? key : nil
            })
    }

    static func expires(now: Double, _ random: inout Seeded) -> AttributeValue? {
        let whole = Int(now)
        switch random.int(0..<9) {
        case 0, 1: return .n(DynamoNumber(whole - random.int(0..<3600)))
        case 2, 3: return .n(DynamoNumber(whole + random.int(1..<7200)))
        case 4: return .n(DynamoNumber(whole - Int(horizon) + random.int(-3..<4) * 1800))
        case 5: return .n(DynamoNumber(whole - 6 * 365 * 24 * 3600))
        case 6: return .n(try! DynamoNumber(parsing: "\(whole + random.int(-2..<3)).5"))
        case 7: return .s("\(whole - 10)")
        default: return nil
        }
    }

    static func item(_ key: String, now: Double, _ random: inout Seeded) -> Item {
        var item: Item = ["pk": .s(key), "g": .s("g\(random.int(0..<3))")]
        item["expires"] = expires(now: now, &random)
        return item
    }

    @Test("each sweep deletes exactly the items a brute-force check finds expired", arguments: [11, 12, 13, 14] as [UInt64])
    func sweepMatchesTheModel(seed: UInt64) throws {
        var random = Seeded(state: seed)
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        _ = try database.updateTimeToLive(
            UpdateTimeToLiveInput(
                tableName: "Events", timeToLiveSpecification: TimeToLiveSpecification(enabled: true, attributeName: "expires")))
        var enabled = true
        var items: [String: Item] = [:]
        var sweeps = 0
        var deletions = 0
        let keys = (0..<40).map { "k\($0)" }
        for step in 0..<600 {
            let now = database.clock.now()
            let key = keys[random.int(0..<keys.count)]
            switch random.int(0..<12) {
            case 0, 1, 2:
                let item = Self.item(key, now: now, &random)
                try Support.put(database, item)
                items[key] = item
            case 3, 4:
                let value = Self.expires(now: now, &random)
                if let value {
                    _ = try database.updateItem(
                        UpdateItemInput(
                            tableName: "Events", key: ["pk": .s(key)],
                            updateExpression: "SET expires = :e", expressionAttributeValues: [":e": value]))
                    items[key, default: ["pk": .s(key)]]["expires"] = value
                } else if items[key] != nil {
                    _ = try database.updateItem(UpdateItemInput(tableName: "Events", key: ["pk": .s(key)], updateExpression: "REMOVE expires"))
                    items[key]?["expires"] = nil
                }
            case 5:
                _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s(key)]))
                items[key] = nil
            case 6:
                let other = keys[(keys.firstIndex(of: key)! + 1 + random.int(0..<keys.count - 1)) % keys.count]
                let first = Self.item(key, now: now, &random)
                _ = try database.batchWriteItem(
                    BatchWriteItemInput(requestItems: [
                        "Events": [
                            WriteRequest(putRequest: PutRequest(item: first)),
                            WriteRequest(deleteRequest: DeleteRequest(key: ["pk": .s(other)])),
                        ]
                    ]))
                items[key] = first
                items[other] = nil
            case 7, 8:
                try database.clock.advance(by: Double(random.int(0..<2400)))
            case 9 where step % 5 == 0:
                // Turn TTL off or on (an hour after the last change, as DynamoDB requires).
                try database.clock.advance(by: 3600)
                enabled.toggle()
                _ = try database.updateTimeToLive(
                    UpdateTimeToLiveInput(
                        tableName: "Events", timeToLiveSpecification: TimeToLiveSpecification(enabled: enabled, attributeName: "expires")))
            default:
                let due = Self.expired(items, now: database.clock.now(), enabled: enabled)
                #expect(try database.sweepExpiredItems() == due.count, "seed \(seed) step \(step)")
                for key in due { items[key] = nil }
                sweeps += 1
                deletions += due.count
                let stored = try Set(
                    keys.filter {
                        try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s($0)])).json != nil
                    })
                #expect(stored == Set(items.keys), "seed \(seed) step \(step)")
            }
        }
        #expect(sweeps > 20)
        #expect(deletions > 20)
        #expect(try database.checkInvariants().violations == [])
    }
}
