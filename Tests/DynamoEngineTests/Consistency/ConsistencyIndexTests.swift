import DynamoAPI
@testable import DynamoEngine
import Testing

/// Index reads in `service` mode on a table with a local index (ALL), a KEYS_ONLY global index
/// and an INCLUDE global index with a sort key (``InvariantTests/makeTable(_:)``): every entry
/// is the projection of a version of its own item current within the window, entries come in
/// the index's order both ways, and the storage itself stays exact.
@Suite struct ConsistencyIndexTests {
    typealias Key = [AttributeValue]

    final class Versions {
        var byKey: [Key: [(at: Double, item: Item?)]] = [:]

        func record(_ key: Key, _ item: Item?, at time: Double) { byKey[key, default: [(-.infinity, nil)]].append((time, item)) }

        /// The versions of `key` a read at `now` may answer (see ``ConsistencyWorkload/allowed(_:strict:)``).
        func allowed(_ key: Key, now: Double, window: Double) -> [Item?] {
            let history = byKey[key] ?? [(-.infinity, nil)]
            return history.indices.filter { $0 == history.count - 1 || history[$0 + 1].at > now - window }.map { history[$0].item }
        }
    }

    static func key(_ item: Item) -> Key { [item["pk"]!, item["sk"]!] }

    static func project(_ item: Item, _ names: [String]) -> Item { item.filter { names.contains($0.key) } }

    @Test("every index entry is a version of its item within the window, in the index's order", arguments: [1, 2] as [UInt64])
    func indexEntriesStayWithinTheirBound(seed: UInt64) throws {
        let clock = StreamTestSupport.clock()
        let database = try StreamTestSupport.database(clock: clock)
        let settings = ConsistencySettings(mode: .service, seed: seed)
        database.consistency.configure(settings)
        try InvariantTests.makeTable(database)
        var random = SeededRandom(seed: seed)
        let versions = Versions()
        var stale = 0
        for _ in 0..<80 {
            let item = InvariantTests.randomItem(&random)
            if Int.random(in: 0..<4, using: &random) == 0 {
                _ = try database.deleteItem(DeleteItemInput(tableName: "Orders", key: Self.project(item, ["pk", "sk"])))
                versions.record(Self.key(item), nil, at: clock.now())
            } else {
                _ = try database.putItem(PutItemInput(tableName: "Orders", item: item))
                versions.record(Self.key(item), item, at: clock.now())
            }
            try clock.advance(by: Double(Int.random(in: 0..<4, using: &random)) / 10)
            let reads: [(index: String, condition: String, value: AttributeValue, names: [String]?, order: String)] = [
                ("byLsk", "pk = :v", .s("p\(Int.random(in: 0..<4, using: &random))"), nil, "lsk"),
                ("byG", "g = :v", .s("g\(Int.random(in: 0..<3, using: &random))"), ["pk", "sk", "g"], "pk"),
                ("byGSk", "g = :v", .s("g\(Int.random(in: 0..<3, using: &random))"), ["pk", "sk", "g", "v"], "sk"),
            ]
            for read in reads {
                for forward in [true, false] {
                    var input = QueryInput(
                        tableName: "Orders", indexName: read.index, keyConditionExpression: read.condition,
                        expressionAttributeValues: [":v": read.value])
                    input.scanIndexForward = forward
                    input.limit = 3
                    var answered: [Item] = []
                    repeat {
                        let page = try database.query(input).page
                        answered += try page.items.map { try AttributeValue.decodeItem(bytes: $0) }
                        input.exclusiveStartKey = page.lastEvaluatedKey
                    } while input.exclusiveStartKey != nil
                    func entry(_ version: Item) -> Item { read.names.map { Self.project(version, $0) } ?? version }
                    for item in answered {
                        let allowed = versions.allowed(Self.key(item), now: clock.now(), window: settings.window).compactMap { $0 }.map(entry)
                        #expect(allowed.contains(item), "\(read.index) answered \(item), none of \(allowed)")
                        if versions.byKey[Self.key(item)]?.last?.item.map(entry) != item { stale += 1 }
                    }
                    #expect(Set(answered.map(Self.key)).count == answered.count, "\(read.index) answered an item twice")
                    if read.order != "pk" {
                        let sorts = answered.map { $0[read.order] }
                        let ordered = zip(sorts, sorts.dropFirst()).allSatisfy { pair in
                            guard let a = pair.0, let b = pair.1 else { return false }
                            return forward
                                ? !(KeyEncoding.encode(b)!.lexicographicallyPrecedes(KeyEncoding.encode(a)!))
                                : !(KeyEncoding.encode(a)!.lexicographicallyPrecedes(KeyEncoding.encode(b)!))
                        }
                        #expect(ordered, "\(read.index) out of order: \(sorts)")
                    }
                }
            }
        }
        #expect(stale > 0)
        #expect(try database.checkInvariants().violations.isEmpty)
    }
}
