import DynamoAPI
@testable import DynamoEngine
import Testing

extension StreamTestSupport {
    /// A database on a pinned clock with `settings`, and the table `Events` (streamed with `view`).
    static func database(
        _ settings: ConsistencySettings, view: StreamViewType? = nil
    ) throws -> (database: Database, clock: ServerClock) {
        let clock = clock()
        let database = try database(clock: clock)
        database.consistency.configure(settings)
        try makeTable(database, view: view)
        return (database, clock)
    }
}

/// A seeded workload over one table with a global index, on a pinned clock, that checks every
/// read against the history of writes: what it may answer is bounded by the consistency mode.
///
/// The table is `Events` (`pk`, index `byG` on `g`, ALL projection). Each step writes one of
/// ten items (put, update, delete), moves the clock by up to 0.4 s, then reads in every way:
/// GetItem, BatchGetItem, a PartiQL SELECT by key, a Query of the index, a Scan of the table
/// and of the index (all eventually consistent), and GetItem with `ConsistentRead`,
/// TransactGetItems and a PartiQL SELECT with `ConsistentRead` (always exact).
final class ConsistencyWorkload {
    let database: Database
    let clock: ServerClock
    let settings: ConsistencySettings
    private var random: SeededRandom
    /// Every item's versions: when each was written and what it was (`nil`: absent).
    private(set) var versions: [String: [(at: Double, item: Item?)]] = [:]
    /// Every answer, in order: the same seed gives the same transcript.
    private(set) var transcript: [String] = []
    /// Eventually consistent answers that were not the current item.
    private(set) var staleAnswers = 0

    static let keys = (0..<10).map { "k\($0)" }
    static let indexValues = ["a", "b", "c"]

    init(settings: ConsistencySettings, workloadSeed: UInt64) throws {
        (database, clock) = try StreamTestSupport.database(settings)
        self.settings = settings
        random = SeededRandom(seed: workloadSeed)
        for key in Self.keys { versions[key] = [(-.infinity, nil)] }
    }

    private func draw(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    var now: Double { clock.now() }

    func current(_ key: String) -> Item? { versions[key]!.last!.item }

    /// The versions of `key` a read at `now` may answer: the current one when exact (or
    /// `strict`); in `service` mode also any version still current within the window before.
    func allowed(_ key: String, strict: Bool = false) -> [Item?] {
        let history = versions[key]!
        guard settings.mode == .service, !strict else { return [history.last!.item] }
        return history.indices.filter { index in
            index == history.count - 1 || history[index + 1].at > now - settings.window
        }.map { history[$0].item }
    }

    /// Whether every write of `key` was made a whole window ago or more (a read must see it).
    func settled(_ key: String) -> Bool {
        settings.mode == .exact || versions[key]!.last!.at <= now - settings.window
    }

    // MARK: Steps

    /// One write, a clock move, and every kind of read, each checked.
    func step() throws {
        try write()
        try clock.advance(by: Double(draw(5)) / 10)
        try readAll()
    }

    func write() throws {
        let key = Self.keys[draw(Self.keys.count)]
        switch draw(10) {
        case 0, 1:
            _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s(key)]))
            record(key, nil)
        case 2, 3:
            let value = Self.indexValues[draw(Self.indexValues.count)]
            let result = try database.updateItem(
                UpdateItemInput(
                    tableName: "Events", key: ["pk": .s(key)], returnValues: .allNew, updateExpression: "SET g = :g ADD n :one",
                    expressionAttributeValues: [":g": .s(value), ":one": .n(DynamoNumber(1))]))
            record(key, result.newItem)
        default:
            let item: Item = [
                "pk": .s(key), "g": .s(Self.indexValues[draw(Self.indexValues.count)]), "v": .n(DynamoNumber(draw(1000))),
            ]
            _ = try database.putItem(PutItemInput(tableName: "Events", item: item))
            record(key, item)
        }
    }

    private func record(_ key: String, _ item: Item?) { versions[key]!.append((now, item)) }

    func readAll() throws {
        let key = Self.keys[draw(Self.keys.count)]
        try checkPoint(key, "GetItem", database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s(key)])).json)
        try checkPoint(
            key, "GetItem consistent",
            database.getItem(GetItemInput(tableName: "Events", key: ["pk": .s(key)], consistentRead: true)).json, strict: true)
        let transact = try database.transactGetItems(
            TransactGetItemsInput(transactItems: [TransactGetItem(get: Get(key: ["pk": .s(key)], tableName: "Events"))]))
        try checkPoint(key, "TransactGetItems", transact.items[0], strict: true)
        let select = try database.executeStatementResult(
            ExecuteStatementInput(statement: "SELECT * FROM Events WHERE pk = '\(key)'"), now: now)
        try checkPoint(key, "PartiQL", select.itemsJSON?.first)
        let strictSelect = try database.executeStatementResult(
            ExecuteStatementInput(statement: "SELECT * FROM Events WHERE pk = '\(key)'", consistentRead: true), now: now)
        try checkPoint(key, "PartiQL consistent", strictSelect.itemsJSON?.first, strict: true)

        let batchKeys = Array(Set((0..<3).map { _ in Self.keys[draw(Self.keys.count)] })).sorted()
        let batch = try database.batchGetItem(
            BatchGetItemInput(requestItems: ["Events": KeysAndAttributes(keys: batchKeys.map { ["pk": .s($0)] })]))
        let found = try itemsByKey(batch.responses["Events"] ?? [], "BatchGetItem")
        for batchKey in batchKeys { check(batchKey, "BatchGetItem", found[batchKey] ?? nil) }

        let value = Self.indexValues[draw(Self.indexValues.count)]
        let query = try database.query(
            QueryInput(
                tableName: "Events", indexName: "byG", keyConditionExpression: "g = :g",
                expressionAttributeValues: [":g": .s(value)]))
        try checkRange("Query byG=\(value)", query.page.items, matching: { $0?["g"] == .s(value) })
        let scan = try database.scan(ScanInput(tableName: "Events", limit: 3 + draw(8)))
        try checkRange("Scan page", scan.page.items, matching: nil, complete: false)
        try checkRange("Scan", try scanAll(index: nil), matching: { $0 != nil })
        try checkRange("Scan byG", try scanAll(index: "byG"), matching: { $0?["g"] != nil })
    }

    /// Every page of a Scan, pages of up to four items.
    private func scanAll(index: String?) throws -> [[UInt8]] {
        var items: [[UInt8]] = []
        var start: Item?
        repeat {
            let page = try database.scan(ScanInput(tableName: "Events", indexName: index, limit: 4, exclusiveStartKey: start)).page
            items += page.items
            start = page.lastEvaluatedKey
        } while start != nil
        return items
    }

    // MARK: Checks

    private func itemsByKey(_ items: [[UInt8]], _ read: String) throws -> [String: Item] {
        var found: [String: Item] = [:]
        for json in items {
            let item = try AttributeValue.decodeItem(bytes: json)
            guard case .s(let key)? = item["pk"] else {
                Issue.record("\(read) answered an item without its key: \(item)")
                continue
            }
            #expect(found[key] == nil, "\(read) answered \(key) twice")
            found[key] = item
        }
        return found
    }

    private func checkPoint(_ key: String, _ read: String, _ json: [UInt8]?, strict: Bool = false) throws {
        let item = try json.map { try AttributeValue.decodeItem(bytes: $0) }
        if let item { #expect(item["pk"] == .s(key), "\(read) of \(key) answered another key's item: \(item)") }
        check(key, read, item, strict: strict)
    }

    private func check(_ key: String, _ read: String, _ item: Item?, strict: Bool = false) {
        let shown = item.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
        transcript.append("\(read) \(key) \(shown ?? "absent")")
        let allowed = allowed(key, strict: strict)
        #expect(
            allowed.contains { $0 == item },
            "\(read) of \(key) at \(now - StreamTestSupport.start): \(String(describing: item)) is none of \(allowed)")
        if item != current(key) { staleAnswers += 1 }
    }

    /// Each item a range read answered is a version of its key within the bound that matches
    /// the read; with `complete`, every item of a settled key whose current version matches is there.
    private func checkRange(_ read: String, _ items: [[UInt8]], matching: ((Item?) -> Bool)?, complete: Bool = true) throws {
        let found = try itemsByKey(items, read)
        for (key, item) in found.sorted(by: { $0.key < $1.key }) {
            check(key, read, item)
            if let matching { #expect(matching(item), "\(read) answered \(item), which it does not select") }
        }
        guard complete, let matching else { return }
        for key in Self.keys where settled(key) && matching(current(key)) {
            #expect(found[key] != nil, "\(read) left out \(key), written more than a window ago")
        }
        transcript.append("\(read) keys \(found.keys.sorted())")
    }
}
