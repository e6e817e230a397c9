import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// The compact stored record (``StoredStreamRecord``) against the record JSON rows held before
/// it: for random changes of items of many shapes, on keys of every type, in every view type,
/// both stored forms read back as the same `Record`; and a database whose shard holds rows of
/// both forms reads them all.
@Suite("Stored stream record")
struct StoredStreamRecordTests {
    typealias Support = StreamTestSupport

    static let keyTypes: [KeyScalarType] = [.string, .number, .binary]
    static let views: [StreamViewType] = [.keysOnly, .newImage, .oldImage, .newAndOldImages]

    /// The record JSON the writer stored before the compact form (session 7's `StreamRecordWriter`).
    static func legacyJSON(
        _ change: ItemChange, view: StreamViewType, eventID: String, sequence: Int64, now: Double, region: String
    ) throws -> [UInt8] {
        var keys = change.table.keyItem(of: change.key)
        if keys.count != change.table.keyAttributes.count, let json = change.newJSON ?? change.oldJSON {
            let names = change.table.keyAttributes.map(\.name)
            keys = try AttributeValue.decodeItem(JSONValue(parsing: json)).filter { names.contains($0.key) }
        }
        let withNew = view == .newImage || view == .newAndOldImages
        let withOld = view == .oldImage || view == .newAndOldImages
        let newImage = withNew ? change.newJSON : nil
        let oldImage = withOld ? change.oldJSON : nil
        let size =
            ItemSize.of(keys) + (newImage == nil ? 0 : change.newSize ?? 0) + (oldImage == nil ? 0 : change.oldSize ?? 0)
        let record = RawStreamsRecord(
            eventID: eventID,
            eventName: change.oldJSON == nil ? .insert : change.newJSON == nil ? .remove : .modify,
            eventVersion: "1.1", eventSource: "aws:dynamodb", awsRegion: region,
            dynamodb: RawStreamsStreamRecord(
                approximateCreationDateTime: Timestamp(secondsSince1970: now.rounded(.down)),
                keys: keys, newImage: newImage.map(RawItem.init), oldImage: oldImage.map(RawItem.init),
                sequenceNumber: StreamNames.sequenceNumber(sequence), sizeBytes: max(1, size),
                streamViewType: view),
            userIdentity: change.origin == .timeToLive
                ? StreamsIdentity(principalId: "dynamodb.amazonaws.com", type: "Service") : nil)
        return record.jsonBytes
    }

    static func keyValue(_ type: KeyScalarType, _ random: inout SeededRandom) throws -> AttributeValue {
        switch type {
        case .string:
            let pieces = ["a", "é", "日本", "\"", "\\", "\u{1F600}", "z", " ", "\n"]
            return .s((0..<Int.random(in: 1..<6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        case .number:
            let numbers = StreamRecordContentTests.numbers + ["1e-130", "9.9999999999999999999999999999999999999E+125", "-0.5"]
            return .n(try DynamoNumber(parsing: numbers[Int.random(in: 0..<numbers.count, using: &random)]))
        case .binary:
            return .b((0..<Int.random(in: 1..<9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }

    static func item(keys: Item, _ random: inout SeededRandom) throws -> Item {
        var item = keys
        for index in 0..<Int.random(in: 0..<6, using: &random) {
            item["attr\(index)"] = try StreamRecordContentTests.value(&random)
        }
        if Bool.random(using: &random) { item["big"] = .s(String(repeating: "x", count: Int.random(in: 100..<3000, using: &random))) }
        return item
    }

    @Test("both stored forms read back as the same record", arguments: [21, 22, 23, 24] as [UInt64])
    func compactMatchesJSON(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try Support.database()
        var tables: [TableDefinition] = []
        for partition in Self.keyTypes {
            for sort in [nil] + Self.keyTypes.map(Optional.some) {
                let name = "T\(partition.rawValue)\(sort?.rawValue ?? "")"
                var definitions = [AttributeDefinition(attributeName: "p", attributeType: .init(rawValue: partition.rawValue))]
                var schema = [KeySchemaElement(attributeName: "p", keyType: .hash)]
                if let sort {
                    definitions.append(AttributeDefinition(attributeName: "s", attributeType: .init(rawValue: sort.rawValue)))
                    schema.append(KeySchemaElement(attributeName: "s", keyType: .range))
                }
                _ = try database.createTable(
                    CreateTableInput(
                        attributeDefinitions: definitions, tableName: name, keySchema: schema,
                        billingMode: .init(rawValue: "PAY_PER_REQUEST")),
                    now: database.clock.now())
                tables.append(try database.table(named: name))
            }
        }
        for round in 0..<300 {
            let table = tables.randomElement(using: &random)!
            var keys: Item = [table.partitionKey.name: try Self.keyValue(table.partitionKey.type, &random)]
            if let sort = table.sortKey { keys[sort.name] = try Self.keyValue(sort.type, &random) }
            let key = try table.storedKey(fromKey: keys)
            let old = Int.random(in: 0..<3, using: &random) == 0 ? nil : try Self.item(keys: keys, &random)
            let new = old == nil || Bool.random(using: &random) ? try Self.item(keys: keys, &random) : nil
            let change = ItemChange(
                table: table, key: key, oldJSON: old.map(ItemJSON.encode), newJSON: new.map(ItemJSON.encode),
                oldSize: old.map(ItemSize.of), newSize: new.map(ItemSize.of),
                origin: Bool.random(using: &random) ? .timeToLive : .request)
            let view = Self.views.randomElement(using: &random)!
            let words = (random.next(), random.next())
            let sequence = Int64(round + 1) * 7919
            let now = Support.start + Double(round) * 1.37
            let stream = StreamRow(
                id: 1, tableName: table.name, label: "label", viewType: view.rawValue,
                partitionKey: table.partitionKey.name, sortKey: table.sortKey?.name, created: Support.start,
                ended: nil, secret: 1, nextSequence: sequence + 1)
            let legacy = try Self.legacyJSON(
                change, view: view, eventID: StoredStreamRecord.eventID(words.0, words.1), sequence: sequence, now: now,
                region: database.region)
            let withNew = view == .newImage || view == .newAndOldImages
            let withOld = view == .oldImage || view == .newAndOldImages
            let compact = StoredStreamRecord.encode(
                event: old == nil ? .insert : new == nil ? .remove : .modify, byTimeToLive: change.origin == .timeToLive,
                eventID: words,
                imageSize: (withNew ? change.newSize ?? 0 : 0) + (withOld ? change.oldSize ?? 0 : 0),
                key: key, table: table, newImage: withNew ? change.newJSON : nil, oldImage: withOld ? change.oldJSON : nil)
            #expect(compact.count < legacy.count)
            let fromLegacy = try StoredStreamRecord.record(
                blob: legacy, sequence: sequence, created: now, stream: stream, region: database.region)
            let fromCompact = try StoredStreamRecord.record(
                blob: compact, sequence: sequence, created: now, stream: stream, region: database.region)
            #expect(fromCompact == fromLegacy, "round \(round), table \(table.name), view \(view)")
            // Cut short anywhere, a compact record is an error, not a wrong record.
            let cut = Int.random(in: 1..<compact.count, using: &random)
            #expect(throws: DynamoError.self) {
                try StoredStreamRecord.record(
                    blob: Array(compact.prefix(cut)), sequence: sequence, created: now, stream: stream,
                    region: database.region)
            }
        }
    }

    @Test("a shard holding record JSON rows and compact rows reads both, in order")
    func mixedShard() throws {
        try Support.withDatabasePath { path in
            let clock = Support.clock()
            var expected: [Item] = []
            do {
                let database = try Support.database(path: path, clock: clock)
                try Support.makeTable(database)
                for index in 0..<5 {
                    let item: Item = ["pk": .s("k\(index)"), "g": .s("g"), "n": .n(DynamoNumber(index))]
                    try Support.put(database, item)
                    expected.append(item)
                }
            }
            // Rewrite those rows as the record JSON an earlier build stored.
            let raw = try SQLiteConnection(path: path)
            let rows = try raw.statement("SELECT sequence, created, record FROM stream_records ORDER BY sequence")
            var rewritten: [(Int64, [UInt8])] = []
            let region = "us-east-1"
            let stream = try #require(try StreamCatalog.streams(table: "Events", connection: raw).first)
            while try rows.step() {
                let record = try StoredStreamRecord.record(
                    blob: rows.blob(2), sequence: rows.int64(0), created: rows.double(1), stream: stream, region: region)
                var json = JSONWriter()
                record.encode(to: &json)
                rewritten.append((rows.int64(0), json.bytes))
            }
            rows.reset()
            #expect(rewritten.count == 5)
            for (sequence, json) in rewritten {
                #expect(json.first == UInt8(ascii: "{"))
                try raw.statement("UPDATE stream_records SET record = ? WHERE sequence = ?").bind(.blob(json), .integer(sequence)).run()
            }
            // As an earlier build left the file: schema 4, which reopening migrates.
            try raw.execute("PRAGMA user_version = 4")
            let database = try Support.database(path: path, clock: clock)
            for index in 5..<9 {
                let item: Item = ["pk": .s("k\(index)"), "g": .s("g")]
                try Support.put(database, item)
                expected.append(item)
            }
            try Support.put(database, ["pk": .s("k0"), "g": .s("h")])
            let records = try Support.consume(database, streamARN: Support.latestStreamARN(database))
            #expect(records.map { $0.dynamodb?.newImage } == expected.map(Optional.some) + [["pk": .s("k0"), "g": .s("h")]])
            #expect(records.last?.dynamodb?.oldImage == expected[0])
            let sequences = records.compactMap { $0.dynamodb?.sequenceNumber }
            #expect(sequences == sequences.sorted() && Set(sequences).count == 10)
        }
    }
}
