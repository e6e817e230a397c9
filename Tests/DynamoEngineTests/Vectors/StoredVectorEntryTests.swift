import DynamoAPI
import DynamoTestSupport
@testable import DynamoEngine
import Testing

/// A backfill reads each stored item's vector in place (``VectorIndexDefinition/storedEntry(json:size:)``):
/// seeded random items of many shapes, each checked against the entry of the decoded item.
@Suite("Vector entries read from stored items")
struct StoredVectorEntryTests {
    /// A number's text of one of the forms a vector's elements take: integers, decimals,
    /// exponents, zeros, more digits than a double holds, values no float holds.
    static func numberText(_ random: inout SeededRandom) -> String {
        let sign = Bool.random(using: &random) ? "-" : ""
        // One element in fifty is a number no float holds.
        if Int.random(in: 0..<50, using: &random) == 0 { return sign + "1E+39" }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return sign + String(Int.random(in: 0...99_999, using: &random))
        case 1: return sign + "0." + String(Int.random(in: 0...9_999_999, using: &random))
        case 2: return sign + String(Float.random(in: -1...1, using: &random))
        case 3: return sign + "\(Int.random(in: 1...9, using: &random))e\(Int.random(in: -44...37, using: &random))"
        case 4: return sign + "0.000"
        case 5:
            return sign + "0."
                + String((0..<Int.random(in: 16...30, using: &random)).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        case 6: return sign + "123456789012.5"
        default: return sign + String(Double.random(in: -1e6...1e6, using: &random))
        }
    }

    static func item(_ random: inout SeededRandom, dimensions: Int) -> Item {
        var item: Item = ["pk": .s("k\(Int.random(in: 0..<1_000, using: &random))")]
        switch Int.random(in: 0..<12, using: &random) {
        case 0: break // no vector
        case 1: item["emb"] = .s("not a list")
        case 2: item["emb"] = .l((0..<dimensions + 1).map { _ in .n(try! DynamoNumber(parsing: "1")) })
        case 3: item["emb"] = .l([.s("x")] + (1..<dimensions).map { _ in .n(try! DynamoNumber(parsing: "1")) })
        default:
            item["emb"] = .l(
                (0..<dimensions).compactMap { _ in
                    (try? DynamoNumber(parsing: numberText(&random))).map(AttributeValue.n) ?? .n(DynamoNumber(0))
                })
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0: break
        case 1: item["tenant"] = .s("")
        case 2: item["tenant"] = .n(DynamoNumber(3))
        default: item["tenant"] = .s(["a", "b", "ü"].randomElement(using: &random)!)
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: break
        case 1: item["kind"] = .s("wrong type")
        default: item["kind"] = .n(DynamoNumber(Int.random(in: -5...5, using: &random)))
        }
        if Int.random(in: 0..<10, using: &random) == 0 { item["quote\"d"] = .s("an escaped name") }
        for name in ["note", "näme", "nested"] where Bool.random(using: &random) {
            item[name] =
                name == "nested" ? .m(["emb": .l([.s("inner")]), "tenant": .n(DynamoNumber(1))]) : .s("value \(name)")
        }
        return item
    }

    @Test("the stored entry equals the decoded item's entry whenever it is read in place", arguments: 1...6)
    func matchesDecodedEntry(seed: UInt64) throws {
        var random = SeededRandom(seed: seed &* 104_729)
        let dimensions = Int.random(in: 1...8, using: &random)
        let database = try Database(path: nil, region: "us-east-1")
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [
                    AttributeDefinition(attributeName: "pk", attributeType: .s), AttributeDefinition(attributeName: "tenant", attributeType: .s),
                    AttributeDefinition(attributeName: "kind", attributeType: .n),
                ],
                tableName: "Vectors", keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)], billingMode: .payPerRequest,
                vectorIndexes: [
                    VectorFixtures.index(
                        dimensions: dimensions, schema: [("tenant", .hash), ("kind", .inlineFilter)],
                        projection: [
                            Projection(projectionType: .all), Projection(projectionType: .keysOnly),
                            Projection(projectionType: .include, nonKeyAttributes: ["note", "näme"]),
                        ][Int(seed % 3)])
                ]),
            now: database.clock.now())
        let table = try database.table(named: "Vectors")
        let index = try #require(table.vectorIndexes.first)
        var readInPlace = 0
        var indexable = 0
        for _ in 0..<400 {
            let item = Self.item(&random, dimensions: dimensions)
            var writer = JSONWriter()
            AttributeValue.encode(item: item, to: &writer)
            let stored = writer.bytes.withUnsafeBytes {
                index.storedEntry(json: $0, size: ItemSize.of(item), projected: index.projectedNames(table: table))
            }
            let decoded = Result { try index.entry(of: item, table: table) }
            if case .success = decoded { indexable += 1 }
            guard let stored else { continue }
            readInPlace += 1
            // Read in place only when the decoded item's entry is known, and then the same entry.
            #expect(stored == (try decoded.get()), "\(item)")
        }
        // Only a member name with an escape keeps an item the index can say something of from
        // being read in place.
        #expect(readInPlace * 10 >= indexable * 8, "\(readInPlace) of \(indexable)")
    }
}
