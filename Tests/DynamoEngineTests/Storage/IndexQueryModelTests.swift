import DynamoAPI
@testable import DynamoEngine
import Testing

/// Query and Scan on indexes of each projection type (an ALL LSI, a KEYS_ONLY GSI and an
/// INCLUDE GSI, ``InvariantTests/makeTable(_:)``) after random writes of every kind, against a
/// model: the table's items, each projected as DynamoDB projects it (the table key, the index
/// key and, for INCLUDE, the named attributes; everything for ALL), present only when the item
/// has every index key attribute.
@Suite struct IndexQueryModelTests {
    /// The index entries the model expects: index name → (the item's projection, its index
    /// partition value).
    static func expectedEntries(of items: [Item]) -> [String: [(entry: Item, partition: AttributeValue)]] {
        func projected(_ item: Item, _ names: [String]) -> Item {
            var entry: Item = [:]
            for name in names { entry[name] = item[name] }
            return entry
        }
        var expected: [String: [(entry: Item, partition: AttributeValue)]] = ["byLsk": [], "byG": [], "byGSk": []]
        for item in items {
            if item["lsk"] != nil { expected["byLsk"]!.append((item, item["pk"]!)) }
            if let g = item["g"] {
                expected["byG"]!.append((projected(item, ["pk", "sk", "g"]), g))
                expected["byGSk"]!.append((projected(item, ["pk", "sk", "g", "v"]), g))
            }
        }
        return expected
    }

    static func decode(_ page: ReadPage) throws -> [Item] {
        try page.items.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
    }

    /// Every item of `index` (or of the table), page by page with `limit` items a page.
    static func scanAll(_ database: Database, index: String?, limit: Int) throws -> [Item] {
        var items: [Item] = []
        var start: Item?
        repeat {
            let page = try database.scan(
                ScanInput(tableName: "Orders", indexName: index, limit: limit, exclusiveStartKey: start)
            ).page
            items += try decode(page)
            start = page.lastEvaluatedKey
        } while start != nil
        return items
    }

    /// One index partition, page by page, in the order asked for.
    static func queryAll(
        _ database: Database, index: String, partitionName: String, value: AttributeValue, limit: Int, forward: Bool
    ) throws -> [Item] {
        var items: [Item] = []
        var start: Item?
        repeat {
            let page = try database.query(
                QueryInput(
                    tableName: "Orders", indexName: index, limit: limit, scanIndexForward: forward,
                    exclusiveStartKey: start, keyConditionExpression: "#p = :p",
                    expressionAttributeNames: ["#p": partitionName], expressionAttributeValues: [":p": value])
            ).page
            items += try decode(page)
            start = page.lastEvaluatedKey
        } while start != nil
        return items
    }

    @Test(arguments: [UInt64(11), 12, 0xBEEF])
    func queriesAndScansMatchTheModel(seed: UInt64) throws {
        let database = try Database(path: nil, region: "us-east-1")
        try InvariantTests.makeTable(database)
        try InvariantTests.randomWorkload(database, seed: seed, count: 300)
        var random = SeededRandom(seed: seed ^ 0x5EED)
        let items = try Self.scanAll(database, index: nil, limit: 1_000)
        #expect(!items.isEmpty)
        let expected = Self.expectedEntries(of: items)
        let sortKeys = ["byLsk": "lsk", "byG": nil, "byGSk": "sk"] as [String: String?]
        let partitionKeys = ["byLsk": "pk", "byG": "g", "byGSk": "g"]
        for (index, entries) in expected {
            let scanned = try Self.scanAll(database, index: index, limit: Int.random(in: 1...7, using: &random))
            #expect(Set(scanned) == Set(entries.map(\.entry)) && scanned.count == entries.count, "seed \(seed), Scan of \(index)")
            for partition in Set(entries.map(\.partition)) {
                let forward = Bool.random(using: &random)
                let found = try Self.queryAll(
                    database, index: index, partitionName: partitionKeys[index]!, value: partition,
                    limit: Int.random(in: 1...5, using: &random), forward: forward)
                let want = entries.filter { $0.partition == partition }.map(\.entry)
                #expect(Set(found) == Set(want) && found.count == want.count, "seed \(seed), Query of \(index) for \(partition)")
                if let sortKey = sortKeys[index]! {
                    // Key bytes compare as the values do (`KeyEncoding`).
                    let keys = found.map { KeyEncoding.encode($0[sortKey]!)! }
                    let ordered = zip(keys, keys.dropFirst()).allSatisfy { before, after in
                        forward ? !after.lexicographicallyPrecedes(before) : !before.lexicographicallyPrecedes(after)
                    }
                    #expect(ordered, "seed \(seed), Query of \(index) out of sort-key order")
                }
            }
        }
    }
}
