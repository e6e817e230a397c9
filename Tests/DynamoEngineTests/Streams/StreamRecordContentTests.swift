import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// A record's keys, images and size against the items the writes left, for keys of every scalar
/// type: the records are written from stored bytes, stored keys and stored sizes, so this checks
/// that they still say what the items say.
@Suite("Stream record content")
struct StreamRecordContentTests {
    typealias Support = StreamTestSupport

    /// A table keyed `n` (N) and `b` (B), streamed with both images.
    static func makeTable(_ database: Database) throws {
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [
                    AttributeDefinition(attributeName: "n", attributeType: .init(rawValue: "N")),
                    AttributeDefinition(attributeName: "b", attributeType: .init(rawValue: "B")),
                ],
                tableName: "Mixed",
                keySchema: [
                    KeySchemaElement(attributeName: "n", keyType: .hash),
                    KeySchemaElement(attributeName: "b", keyType: .range),
                ],
                billingMode: .init(rawValue: "PAY_PER_REQUEST"),
                streamSpecification: StreamSpecification(streamEnabled: true, streamViewType: .newAndOldImages)),
            now: database.clock.now())
    }

    static let numbers = ["0", "-1.50", "12.5e3", "0.000123", "99999999999999999999999999999999999999", "-7"]

    static func value(_ random: inout SeededRandom) throws -> AttributeValue {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: .s(String(repeating: "é", count: Int.random(in: 1..<5, using: &random)) + "x")
        case 1: .n(try DynamoNumber(parsing: numbers[Int.random(in: 0..<numbers.count, using: &random)]))
        case 2: .b(Array("bytes".utf8.prefix(Int.random(in: 1..<6, using: &random))))
        case 3: .ss(["a", "bb", "ccc"].shuffled(using: &random))
        case 4: .m(["inner": .l([.bool(true), .null, .n(DynamoNumber(Int.random(in: 0..<9, using: &random)))])])
        case 5: .bool(Bool.random(using: &random))
        default: .l([.s("q\"uote\\"), .b([0, 255])])
        }
    }

    @Test("keys, images and SizeBytes agree with the items", arguments: [11, 12, 13] as [UInt64])
    func recordsMatchItems(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try Support.database()
        try Self.makeTable(database)
        var items: [Item: Item] = [:]
        var expected: [(keys: Item, old: Item?, new: Item?)] = []
        for _ in 0..<60 {
            let key: Item = [
                "n": .n(try DynamoNumber(parsing: Self.numbers[Int.random(in: 0..<3, using: &random)])),
                "b": .b([UInt8(Int.random(in: 0..<3, using: &random))]),
            ]
            let old = items[key]
            if Int.random(in: 0..<4, using: &random) == 0 {
                _ = try database.deleteItem(DeleteItemInput(tableName: "Mixed", key: key))
                items[key] = nil
                if let old { expected.append((key, old, nil)) }
            } else {
                var item = key
                for index in 0..<Int.random(in: 0..<4, using: &random) { item["a\(index)"] = try Self.value(&random) }
                try Support.put(database, item, table: "Mixed")
                items[key] = item
                if old != item { expected.append((key, old, item)) }
            }
        }
        let arn = try Support.latestStreamARN(database, table: "Mixed")
        let records = try Support.consume(database, streamARN: arn)
        #expect(records.count == expected.count)
        for (record, want) in zip(records, expected) {
            let body = try #require(record.dynamodb)
            #expect(body.keys == want.keys)
            #expect(body.oldImage == want.old)
            #expect(body.newImage == want.new)
            #expect(record.eventName == (want.old == nil ? .insert : want.new == nil ? .remove : .modify))
            let size = ItemSize.of(want.keys) + (want.old.map(ItemSize.of) ?? 0) + (want.new.map(ItemSize.of) ?? 0)
            #expect(body.sizeBytes == size)
            #expect(record.eventID?.count == 32 && record.eventID?.allSatisfy(\.isHexDigit) == true)
        }
    }
}
