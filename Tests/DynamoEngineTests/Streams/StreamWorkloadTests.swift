import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// A seeded mixed workload (puts, updates, deletes, conditional writes, batches, transactions,
/// TTL deletions) across shard rollovers and a reopen of the database file: a consumer that
/// follows shard lineage sees every real change exactly once, in order per item.
@Suite("Stream workload")
struct StreamWorkloadTests {
    typealias Support = StreamTestSupport

    /// A small seeded generator (a 64-bit LCG with an output mix), so a seed reproduces a run.
    struct Seeded {
        var state: UInt64
        mutating func int(_ range: Range<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mixed = (state ^ (state >> 33)) &* 0xFF51_AFD7_ED55_8CCD
            return range.lowerBound + Int((mixed >> 17) % UInt64(range.count))
        }
    }

    /// What the consumer must see for one item.
    struct Change: Equatable {
        var old: Item?
        var new: Item?
        var byService: Bool
    }

    /// The table's expected contents and every expected change per key.
    struct Model {
        var items: [String: Item] = [:]
        var changes: [String: [Change]] = [:]

        mutating func apply(_ key: String, _ new: Item?, byService: Bool = false) {
            let old = items[key]
            guard old != new else { return }
            items[key] = new
            changes[key, default: []].append(Change(old: old, new: new, byService: byService))
        }
    }

    static func item(_ key: String, _ random: inout Seeded) -> Item {
        var item: Item = ["pk": .s(key), "v": .n(DynamoNumber(random.int(0..<3))), "g": .s("g\(random.int(0..<2))")]
        switch random.int(0..<10) {
        case 0, 1: item["expires"] = .n(DynamoNumber(Int(Support.start) - 100))
        case 2: item["expires"] = .n(DynamoNumber(Int(Support.start) + 30 * 24 * 3600))
        default: break
        }
        return item
    }

    static func run(_ steps: Int, on database: Database, model: inout Model, random: inout Seeded) throws {
        let keys = (0..<12).map { "k\($0)" }
        for _ in 0..<steps {
            let key = keys[random.int(0..<keys.count)]
            var other = keys[random.int(0..<keys.count)]
            if other == key { other = key == "k0" ? "k1" : "k0" }
            switch random.int(0..<6) {
            case 0:
                let item = item(key, &random)
                try Support.put(database, item)
                model.apply(key, item)
            case 1:
                let value = AttributeValue.n(DynamoNumber(random.int(0..<3)))
                _ = try database.updateItem(
                    UpdateItemInput(
                        tableName: "Events", key: ["pk": .s(key)],
                        updateExpression: "SET v = :v", expressionAttributeValues: [":v": value]))
                var updated = model.items[key] ?? ["pk": .s(key)]
                updated["v"] = value
                model.apply(key, updated)
            case 2:
                _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s(key)]))
                model.apply(key, nil)
            case 3:
                let item = item(key, &random)
                do {
                    _ = try database.putItem(
                        PutItemInput(
                            tableName: "Events", item: item,
                            conditionExpression: "attribute_not_exists(pk)"))
                    model.apply(key, item)
                } catch let error as DynamoError where error.code == .conditionalCheckFailed {
                    #expect(model.items[key] != nil)
                }
            case 4:
                let first = item(key, &random)
                let deletes = random.int(0..<2) == 0
                _ = try database.batchWriteItem(
                    BatchWriteItemInput(requestItems: [
                        "Events": [
                            WriteRequest(putRequest: PutRequest(item: first)),
                            deletes
                                ? WriteRequest(deleteRequest: DeleteRequest(key: ["pk": .s(other)]))
                                : WriteRequest(putRequest: PutRequest(item: item(other, &random))),
                        ]
                    ]))
                model.apply(key, first)
                if deletes { model.apply(other, nil) }
            default:
                let first = item(key, &random)
                _ = try database.transactWriteItems(
                    TransactWriteItemsInput(transactItems: [
                        TransactWriteItem(put: Put(item: first, tableName: "Events")),
                        TransactWriteItem(
                            update: Update(
                                key: ["pk": .s(other)], updateExpression: "SET v = :v",
                                tableName: "Events", expressionAttributeValues: [":v": .n(DynamoNumber(7))])),
                    ]), now: database.clock.now())
                model.apply(key, first)
                var updated = model.items[other] ?? ["pk": .s(other)]
                updated["v"] = .n(DynamoNumber(7))
                model.apply(other, updated)
            }
            // The batch case put `other` with a random item: read it back into the model.
            for name in [key, other] {
                let stored = try database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s(name)])).json
                let item = try stored.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
                model.apply(name, item)
            }
        }
    }

    static func sweep(_ database: Database, model: inout Model) throws {
        let now = database.clock.now()
        let expired = model.items.filter { TimeToLiveExpiry.isExpired($0.value["expires"], now: now) }.keys
        #expect(try database.sweepExpiredItems() == expired.count)
        for key in expired { model.apply(key, nil, byService: true) }
    }

    @Test("a consumer following shard lineage sees every change once, in order", arguments: [1, 2, 3] as [UInt64])
    func workload(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streams-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/us-east-1.db"
        let clock = Support.clock()
        var random = Seeded(state: seed)
        var model = Model()
        var database = try Support.database(path: path, clock: clock)
        try Support.makeTable(database)
        _ = try database.updateTimeToLive(
            UpdateTimeToLiveInput(
                tableName: "Events", timeToLiveSpecification: TimeToLiveSpecification(enabled: true, attributeName: "expires")))
        try Self.run(150, on: database, model: &model, random: &random)
        try clock.advance(by: 4 * 3600 + 1)
        try Self.run(150, on: database, model: &model, random: &random)
        try Self.sweep(database, model: &model)
        database = try Support.database(path: path, clock: clock)
        try Self.run(150, on: database, model: &model, random: &random)
        try clock.advance(by: 4 * 3600 + 1)
        try Self.run(100, on: database, model: &model, random: &random)
        try Self.sweep(database, model: &model)

        let arn = try Support.latestStreamARN(database)
        let shards = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards)
        #expect(shards.count == 3)
        let records = try Support.consume(database, streamARN: arn)
        let stored = try database.read { connection in
            let statement = try connection.statement("SELECT count(*) FROM stream_records")
            defer { statement.reset() }
            _ = try statement.step()
            return Int(statement.int64(0))
        }
        #expect(records.count == stored)
        var seen: [String: [Change]] = [:]
        var lastSequence = ""
        for record in records {
            let body = try #require(record.dynamodb)
            let sequence = try #require(body.sequenceNumber)
            #expect(sequence > lastSequence)
            lastSequence = sequence
            guard case .s(let key)? = body.keys?["pk"] else { Issue.record("record without key"); continue }
            #expect(record.eventName == (body.oldImage == nil ? .insert : body.newImage == nil ? .remove : .modify))
            seen[key, default: []].append(Change(old: body.oldImage, new: body.newImage, byService: record.userIdentity != nil))
        }
        #expect(records.count == model.changes.values.reduce(0) { $0 + $1.count })
        for key in Set(model.changes.keys).union(seen.keys) {
            #expect(seen[key] ?? [] == model.changes[key] ?? [], "changes of \(key), seed \(seed)")
        }
    }
}
