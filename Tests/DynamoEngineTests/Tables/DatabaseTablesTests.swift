import DynamoAPI
@testable import DynamoEngine
import Foundation
import Synchronization
import Testing

/// DescribeTable's statistics: the table's and every index's, exact after writes of every kind
/// and consistent with the definition they are reported with while tables and indexes come and
/// go.
@Suite struct DatabaseTablesTests {
    /// The rows of `name` counted with SQL: items, and entries per index name.
    static func storedCounts(_ database: Database, table name: String) throws -> (items: TableStatistics, indexes: [String: TableStatistics]) {
        let definition = try database.table(named: name)
        return try database.read { connection in
            var indexes: [String: TableStatistics] = [:]
            for index in definition.indexes {
                indexes[index.name] = try IndexStore(table: definition, index: index, connection: connection).statistics()
            }
            return (try ItemStore(table: definition, connection: connection).statistics(), indexes)
        }
    }

    /// DescribeTable's counts equal the stored rows', for the table and each of its indexes.
    static func expectDescribedMatchesStored(_ database: Database, _ context: String) throws {
        let described = try database.describeTable(named: "Orders")
        let stored = try storedCounts(database, table: "Orders")
        #expect(described.itemCount == stored.items.itemCount && described.sizeBytes == stored.items.sizeBytes, "\(context)")
        #expect(Set(described.indexStatistics.keys) == Set(stored.indexes.keys), "\(context)")
        for (name, counted) in stored.indexes {
            let live = described.indexStatistics[name]
            #expect(live?.itemCount == counted.itemCount && live?.sizeBytes == counted.sizeBytes, "\(context): index \(name)")
        }
    }

    /// A random item of `Orders` (see `InvariantTests.makeTable`) over 600 keys, so an index
    /// build takes several chunks.
    static func randomItem(_ random: inout SeededRandom) -> Item {
        var item: Item = [
            "pk": .s("p\(Int.random(in: 0..<60, using: &random))"),
            "sk": .n(DynamoNumber(Int.random(in: 0..<10, using: &random))),
        ]
        if Bool.random(using: &random) { item["lsk"] = .s("l\(Int.random(in: 0..<5, using: &random))") }
        if Int.random(in: 0..<3, using: &random) > 0 { item["g"] = .s("g\(Int.random(in: 0..<3, using: &random))") }
        if Bool.random(using: &random) { item["v"] = .n(DynamoNumber(Int.random(in: 0..<1000, using: &random))) }
        if Int.random(in: 0..<3, using: &random) > 0 {
            item["w"] = .s(String(repeating: "x", count: Int.random(in: 1..<50, using: &random)))
        }
        return item
    }

    /// One random write of any kind, including conditions that fail and cancelled transactions
    /// (their errors are expected and swallowed; any other error fails the test).
    static func randomWrite(_ database: Database, _ random: inout SeededRandom) throws {
        let item = randomItem(&random)
        let key: Item = ["pk": item["pk"]!, "sk": item["sk"]!]
        do {
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                _ = try database.putItem(PutItemInput(tableName: "Orders", item: item))
            case 1:
                // Fails when the item exists.
                _ = try database.putItem(PutItemInput(tableName: "Orders", item: item, conditionExpression: "attribute_not_exists(pk)"))
            case 2:
                _ = try database.updateItem(
                    UpdateItemInput(
                        tableName: "Orders", key: key, updateExpression: "SET g = :g, v = :v, w = :w REMOVE lsk",
                        conditionExpression: Bool.random(using: &random) ? "attribute_exists(g)" : nil,
                        expressionAttributeValues: [
                            ":g": .s("g\(Int.random(in: 0..<3, using: &random))"), ":v": .n(DynamoNumber(7)),
                            ":w": .s(String(repeating: "y", count: Int.random(in: 1..<80, using: &random))),
                        ]))
            case 3:
                _ = try database.deleteItem(
                    DeleteItemInput(tableName: "Orders", key: key, conditionExpression: Bool.random(using: &random) ? "attribute_exists(v)" : nil))
            case 4:
                var writes: [WriteRequest] = []
                var seen: Set<Item> = []
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    let other = randomItem(&random)
                    let otherKey: Item = ["pk": other["pk"]!, "sk": other["sk"]!]
                    guard seen.insert(otherKey).inserted else { continue }
                    writes.append(
                        Bool.random(using: &random)
                            ? WriteRequest(putRequest: PutRequest(item: other))
                            : WriteRequest(deleteRequest: DeleteRequest(key: otherKey)))
                }
                _ = try database.batchWriteItem(BatchWriteItemInput(requestItems: ["Orders": writes]))
            default:
                // A transaction whose last action, a condition check, fails about half the time:
                // the put and delete before it must leave no trace then.
                let other = randomItem(&random)
                let otherKey: Item = ["pk": other["pk"]!, "sk": other["sk"]!]
                let checked = randomItem(&random)
                let checkedKey: Item = ["pk": checked["pk"]!, "sk": checked["sk"]!]
                var actions = [TransactWriteItem(put: Put(item: item, tableName: "Orders"))]
                if otherKey != key { actions.append(TransactWriteItem(delete: Delete(key: otherKey, tableName: "Orders"))) }
                if checkedKey != key, checkedKey != otherKey {
                    actions.append(
                        TransactWriteItem(
                            conditionCheck: ConditionCheck(key: checkedKey, tableName: "Orders", conditionExpression: "attribute_exists(pk)")))
                }
                _ = try database.transactWriteItems(TransactWriteItemsInput(transactItems: actions), now: 1_700_000_000)
            }
        } catch let error as DynamoError where error.code == .conditionalCheckFailed || error.code == .transactionCanceled {
            // Refused as intended: nothing written.
        }
    }

    /// `count` random writes queued for the writer thread while it is held, so they run as one
    /// group: each in a savepoint, the failed ones rolled back alone.
    static func groupOfWrites(_ database: Database, _ random: inout SeededRandom, count: Int) throws {
        let done = DispatchGroup()
        let failures = Problems()
        let seeds = (0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
        database.holdingWriterLock {
            for seed in seeds {
                done.enter()
                database.enqueueWrite {
                    var own = SeededRandom(seed: seed)
                    try randomWrite(database, &own)
                } completion: { result in
                    if case .failure(let error) = result { failures.note("\(error)") }
                    done.leave()
                }
            }
        }
        done.wait()
        #expect(failures.all == [])
    }

    /// Random writes of every kind on a table with an LSI and two GSIs, on their own and in
    /// write groups, while a third GSI is built chunk by chunk and later dropped: after every
    /// step DescribeTable's counts and sizes (table and each index) equal the stored rows'.
    @Test(arguments: [UInt64(1), 2, 0xDE5C_41BE])
    func describedStatisticsFollowEveryWrite(seed: UInt64) throws {
        try DatabaseTests.withDatabaseFile { path in
            let database = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
            try InvariantTests.makeTable(database)
            var random = SeededRandom(seed: seed)
            let building = IndexDefinition(
                name: "byW", partitionKey: KeyAttribute(name: "w", type: .string), sortKey: nil,
                projectionType: .all, status: .creating, storageNumber: 9, isGlobal: true)
            var cursor: Database.BackfillCursor?
            for step in 0..<1_200 {
                if step % 97 == 0 {
                    try Self.groupOfWrites(database, &random, count: 12)
                } else {
                    try Self.randomWrite(database, &random)
                }
                switch step {
                case 400:
                    // A GSI added to the populated table, built in chunks between the writes.
                    _ = try database.updateDefinition(named: "Orders") { definition, connection in
                        definition.globalIndexes.append(building)
                        try connection.execute(IndexStore.createSQL(table: definition, index: building))
                    }
                case 401..<1_000 where step % 40 == 0:
                    if case .more(let after) = try database.backfillStep(table: database.table(named: "Orders"), index: building, after: cursor) {
                        cursor = after
                    } else {
                        cursor = nil
                    }
                case 1_000:
                    _ = try database.updateDefinition(named: "Orders") { definition, _ in
                        definition.globalIndexes[definition.globalIndexes.firstIndex { $0.name == "byW" }!].status = .deleting
                    }
                case 1_100:
                    try database.dropIndex(table: database.table(named: "Orders"), index: database.table(named: "Orders").index(named: "byW")!)
                default:
                    break
                }
                if step % 50 == 0 { try Self.expectDescribedMatchesStored(database, "seed \(seed) step \(step)") }
            }
            #expect(try database.table(named: "Orders").index(named: "byW") == nil)
            try Self.expectDescribedMatchesStored(database, "seed \(seed) at the end")
            #expect(try database.checkInvariants().violations == [], "seed \(seed)")
            // The counts survive a reopen (counted from the rows then).
            let reopened = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
            try Self.expectDescribedMatchesStored(reopened, "seed \(seed) reopened")
        }
    }

    /// Opening a database counts no rows: each table's statistics are unknown until first
    /// needed, then counted once on the writer. Until then DescribeTable does not answer from
    /// memory (the server places it on the pool); the first write, an index added, or DescribeTable counts
    /// them, and the counts stay exact and consistent with the invariant checker.
    @Test(arguments: ["describe", "write", "addIndex"])
    func statisticsAreCountedOnFirstUseAfterOpen(firstUse: String) throws {
        try DatabaseTests.withDatabaseFile { path in
            do {
                let database = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
                try InvariantTests.makeTable(database)
                var random = SeededRandom(seed: 7)
                for _ in 0..<300 { try Self.randomWrite(database, &random) }
            }
            let reopened = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
            #expect(reopened.publishedTable("Orders")?.statistics == nil)
            #expect(reopened.writer.withLock { $0.statistics.tables.isEmpty })
            #expect(!reopened.describesFromMemory("Orders"))
            // The checker accepts tables not counted yet.
            #expect(try reopened.checkInvariants().violations == [])
            var random = SeededRandom(seed: 8)
            switch firstUse {
            case "write":
                try Self.randomWrite(reopened, &random)
                try Self.randomWrite(reopened, &random)
            case "addIndex":
                let added = IndexDefinition(
                    name: "byW", partitionKey: KeyAttribute(name: "w", type: .string), sortKey: nil,
                    projectionType: .all, status: .creating, storageNumber: 9, isGlobal: true)
                _ = try reopened.updateDefinition(named: "Orders") { definition, connection in
                    definition.globalIndexes.append(added)
                    try connection.execute(IndexStore.createSQL(table: definition, index: added))
                }
                _ = try reopened.backfillStep(table: reopened.table(named: "Orders"), index: added, after: nil)
                try Self.randomWrite(reopened, &random)
            default:
                break
            }
            try Self.expectDescribedMatchesStored(reopened, "first use \(firstUse)")
            #expect(reopened.publishedTable("Orders")?.statistics != nil)
            #expect(reopened.describesFromMemory("Orders"))
            for _ in 0..<50 { try Self.randomWrite(reopened, &random) }
            try Self.expectDescribedMatchesStored(reopened, "first use \(firstUse), after writes")
            #expect(try reopened.checkInvariants().violations == [])
        }
    }

    /// DescribeTable racing CreateTable / DeleteTable of the same name and UpdateTable creating
    /// and deleting a GSI (whose backfill and drop run in the background): every answer is a
    /// table or ResourceNotFoundException, never another error, and lists statistics for every
    /// index it lists.
    @Test func describeRacingTableAndIndexChanges() throws {
        try DatabaseTests.withDatabaseFile { path in
            let database = try Database(path: path, region: "us-east-1")
            let rounds = 60
            let problems = Problems()
            /// Errors a table or index change may meet while another one runs.
            @Sendable func expectedRefusal(_ error: any Error) -> Bool {
                guard let error = error as? DynamoError else { return false }
                return [.resourceNotFound, .resourceInUse, .limitExceeded, .validation].contains(error.code)
            }
            let threads = DispatchGroup()
            func run(_ body: @escaping @Sendable () -> Void) {
                threads.enter()
                Thread {
                    body()
                    threads.leave()
                }.start()
            }
            run {
                for _ in 0..<rounds {
                    do { try InvariantTests.makeTable(database) } catch let error where expectedRefusal(error) {} catch {
                        problems.note("CreateTable: \(error)")
                    }
                    do { _ = try database.deleteTable(named: "Orders") } catch let error where expectedRefusal(error) {} catch {
                        problems.note("DeleteTable: \(error)")
                    }
                }
                problems.finished.add(1, ordering: .relaxed)
            }
            run {
                let create = GlobalSecondaryIndexUpdate(
                    create: CreateGlobalSecondaryIndexAction(
                        indexName: "byV", keySchema: [KeySchemaElement(attributeName: "lsk", keyType: .init(rawValue: "HASH"))],
                        projection: Projection(projectionType: .init(rawValue: "ALL"))))
                let delete = GlobalSecondaryIndexUpdate(delete: DeleteGlobalSecondaryIndexAction(indexName: "byV"))
                for round in 0..<rounds * 4 {
                    let update = UpdateTableInput(
                        attributeDefinitions: [AttributeDefinition(attributeName: "lsk", attributeType: .init(rawValue: "S"))],
                        tableName: "Orders", globalSecondaryIndexUpdates: [round % 2 == 0 ? create : delete])
                    do { _ = try database.updateTable(update, now: 1_700_000_000) } catch let error where expectedRefusal(error) {} catch {
                        problems.note("UpdateTable: \(error)")
                    }
                }
                problems.finished.add(1, ordering: .relaxed)
            }
            run {
                var round = 0
                while problems.finished.load(ordering: .relaxed) < 2 {
                    round += 1
                    let item: Item = ["pk": .s("p\(round % 50)"), "sk": .n(DynamoNumber(round % 3)), "lsk": .s("l"), "g": .s("g")]
                    do { _ = try database.putItem(PutItemInput(tableName: "Orders", item: item)) } catch let error where expectedRefusal(error) {
                    } catch {
                        problems.note("PutItem: \(error)")
                    }
                }
            }
            for _ in 0..<2 {
                run {
                    while problems.finished.load(ordering: .relaxed) < 2 {
                        do {
                            let snapshot = try database.describeTable(named: "Orders")
                            for index in snapshot.definition.indexes where snapshot.indexStatistics[index.name] == nil {
                                problems.note("DescribeTable lists index \(index.name) without statistics")
                            }
                        } catch let error as DynamoError where error.code == .resourceNotFound {
                        } catch {
                            problems.note("DescribeTable: \(error)")
                        }
                    }
                }
            }
            threads.wait()
            #expect(problems.all == [])
            // Once the index work has settled, no SQLite table is left without its catalog entry
            // (a DeleteTable that saw the table before an index was added once left the index's).
            try Self.waitForIndexWork(database)
            #expect(try database.checkInvariants().violations == [])
        }
    }

    /// Waits (up to 30 s) until no index of `Orders` is CREATING or DELETING.
    static func waitForIndexWork(_ database: Database) throws {
        let deadline = Date().addingTimeInterval(30)
        while let table = try? database.table(named: "Orders"), table.globalIndexes.contains(where: { $0.status != .active }) {
            try #require(Date() < deadline, "the index work did not finish in 30 s")
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// UpdateTable's request creating the global index `byV` (on `lsk`) of `Orders`.
    static let createByV = UpdateTableInput(
        attributeDefinitions: [AttributeDefinition(attributeName: "lsk", attributeType: .init(rawValue: "S"))],
        tableName: "Orders",
        globalSecondaryIndexUpdates: [
            GlobalSecondaryIndexUpdate(
                create: CreateGlobalSecondaryIndexAction(
                    indexName: "byV", keySchema: [KeySchemaElement(attributeName: "lsk", keyType: .init(rawValue: "HASH"))],
                    projection: Projection(projectionType: .init(rawValue: "ALL"))))
        ])

    /// The bug the race test found, made certain: UpdateTable replaces a leftover SQLite table
    /// of its new index's name (`DROP TABLE IF EXISTS` before `CREATE TABLE`) while a statement
    /// of the writer is still mid-read. SQLite refused that drop ("database table is locked",
    /// a 500) until every drop reset the statements still reading first.
    @Test func createIndexOverLeftoverTable() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try InvariantTests.makeTable(database)
        let item: Item = ["pk": .s("p"), "sk": .n(DynamoNumber(1)), "lsk": .s("l"), "g": .s("g")]
        _ = try database.putItem(PutItemInput(tableName: "Orders", item: item))
        let table = try database.table(named: "Orders")
        // The table of the next index number, holding a stale entry, as a DeleteTable racing
        // an index creation left in files written before the fix.
        let leftover = IndexDefinition(
            name: "byV", partitionKey: KeyAttribute(name: "lsk", type: .string), sortKey: nil,
            projectionType: .all, status: .active,
            storageNumber: (table.indexes.map(\.storageNumber).max() ?? 0) + 1, isGlobal: true)
        let leftoverName = IndexStore.name(table: table, index: leftover)
        try database.write { state in
            try state.connection.execute(IndexStore.createSQL(table: table, index: leftover))
            try state.connection.execute("INSERT INTO \(leftoverName) VALUES (0, x'00', x'00', x'00', x'00', 1, x'00')")
            // A one-row read stepped and not reset, as the engine's cached statements stay.
            _ = try state.connection.statement("SELECT name FROM catalog").step()
        }
        #expect(try database.checkInvariants().violations == [InvariantViolation(message: "orphan SQLite table \(leftoverName)")])
        try database.write { state in _ = try state.connection.statement("SELECT name FROM catalog").step() }

        let created = try database.updateTable(Self.createByV, now: 1_700_000_000)
        #expect(created.definition.index(named: "byV")?.storageNumber == leftover.storageNumber)
        try Self.waitForIndexWork(database)
        #expect(try database.checkInvariants().violations == [])
        let page = try database.query(
            table: "Orders", index: "byV", keyCondition: KeyConditionSpec(partitionName: "lsk", partitionValue: .s("l")),
            forward: true, options: ReadOptions())
        #expect(try page.items.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) } == [item])
        try Self.expectDescribedMatchesStored(database, "after the build")
    }

    /// DeleteTable drops the table as it is when the writer runs: an index added after the
    /// request looked the table up goes too (its SQLite table was once left behind).
    @Test func deleteDropsIndexAddedAfterLookup() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try InvariantTests.makeTable(database)
        let seen = try database.describeTable(named: "Orders")
        _ = try database.updateTable(Self.createByV, now: 1_700_000_000)
        try Self.waitForIndexWork(database)
        let deleted = try database.deleteTable(seen)
        #expect(deleted.definition.index(named: "byV") != nil)
        #expect(try database.checkInvariants().violations == [])
        #expect(database.tables.isEmpty)
    }

    /// DeleteTable refuses, with the message of a request that saw it, a table whose index
    /// became CREATING after the request looked the table up.
    @Test func deleteRefusesIndexCreatedAfterLookup() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try InvariantTests.makeTable(database)
        let seen = try database.describeTable(named: "Orders")
        // A CREATING index whose backfill never starts, so the refusal is certain.
        _ = try database.updateDefinition(named: "Orders") { definition, connection in
            var index = try #require(definition.index(named: "byG"))
            index.name = "byV"
            index.status = .creating
            index.storageNumber = (definition.indexes.map(\.storageNumber).max() ?? 0) + 1
            definition.globalIndexes.append(index)
            try connection.execute(IndexStore.createSQL(table: definition, index: index))
        }
        #expect(throws: EngineMessages.deleteTableWhileIndexesChange) { try database.deleteTable(seen) }
        #expect(try database.table(named: "Orders").index(named: "byV")?.status == .creating)
        #expect(try database.checkInvariants().violations == [])
    }
}

/// What threads of a test report: problems (the first 20) and how many finished.
private final class Problems: Sendable {
    private let found = Mutex<[String]>([])
    let finished = Atomic<Int>(0)

    func note(_ problem: String) { found.withLock { if $0.count < 20 { $0.append(problem) } } }

    var all: [String] { found.withLock { $0 } }
}
