import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Vector indexes added by UpdateTable to tables with items: the backfill in chunks, writes
/// racing it, its status on the server clock, a stop mid-build.
@Suite("Vector index backfill")
struct VectorBackfillTests {
    typealias F = VectorFixtures

    static let dimensions = 4

    /// Adds `vix` (`dimensions`, EUCLIDEAN, search schema `tenant` HASH and `kind` filter when
    /// `hashed`, else `kind` only) to `Vectors` by UpdateTable.
    @discardableResult
    static func addIndex(_ database: Database, hashed: Bool = true) throws -> TableSnapshot {
        let schema: [SearchSchemaElement] =
            (hashed ? [SearchSchemaElement(attributeName: "tenant", searchSchemaElementType: .hash)] : [])
            + [SearchSchemaElement(attributeName: "kind", searchSchemaElementType: .inlineFilter)]
        return try database.updateTable(
            UpdateTableInput(
                attributeDefinitions: schema.map { AttributeDefinition(attributeName: $0.attributeName, attributeType: .s) },
                tableName: "Vectors",
                vectorIndexUpdates: [
                    VectorIndexUpdate(
                        create: CreateVectorIndexAction(
                            indexName: "vix", vectorAttribute: VectorAttributeDefinition(attributeName: "emb"), searchSchema: schema,
                            projection: Projection(projectionType: .keysOnly), dimensions: dimensions, distanceFunction: .euclidean))
                ]), now: database.clock.now())
    }

    static func building(_ database: Database) throws -> VectorIndexDefinition {
        try #require(try database.table(named: "Vectors").vectorIndex(named: "vix"))
    }

    static func described(_ database: Database) throws -> VectorIndexDescription {
        try #require(try database.describeTable(named: "Vectors").tableDescription.vectorIndexes?.first { $0.indexName == "vix" })
    }

    /// A random item `k<n>`: mostly with a `dimensions` vector, sometimes with none or one of
    /// another length (`wrongLength`, which only a table without the index takes), with or
    /// without `tenant` and `kind`.
    static func randomItem(_ number: Int, _ random: inout SeededRandom, wrongLength: Bool) -> Item {
        var item: Item = ["pk": .s("k\(number)"), "other": .s(String(repeating: "x", count: Int.random(in: 0...40, using: &random)))]
        switch Int.random(in: 0..<10, using: &random) {
        case 0: break
        case 1 where wrongLength: item["emb"] = F.vector([1, 2])
        default:
            item["emb"] = F.vector((0..<dimensions).map { _ in Float(Int.random(in: -500...500, using: &random)) / 100 })
        }
        if Int.random(in: 0..<5, using: &random) > 0 { item["tenant"] = .s(["a", "b", "c"].randomElement(using: &random)!) }
        if Bool.random(using: &random) { item["kind"] = .s(["x", "y"].randomElement(using: &random)!) }
        return item
    }

    /// One random write to `Vectors`: a put, an update of the vector or the tenant, a removal
    /// of the vector, a delete, or a batch of puts and deletes. An update that keeps a vector
    /// of another length (stored before the index existed) is refused by the index, and changes
    /// nothing; any other refusal fails the test.
    static func randomWrite(_ database: Database, _ random: inout SeededRandom, keys: Int) throws {
        do {
            try anyWrite(database, &random, keys: keys)
        } catch let error as DynamoError where error == EngineMessages.vectorSize("emb", expected: dimensions, actual: 2, index: "vix") {}
    }

    private static func anyWrite(_ database: Database, _ random: inout SeededRandom, keys: Int) throws {
        let number = Int.random(in: 0..<keys, using: &random)
        let key: Item = ["pk": .s("k\(number)")]
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            _ = try database.putItem(PutItemInput(tableName: "Vectors", item: randomItem(number, &random, wrongLength: false)))
        case 2:
            let vector = F.vector((0..<dimensions).map { _ in Float(Int.random(in: -500...500, using: &random)) / 100 })
            _ = try database.updateItem(
                UpdateItemInput(tableName: "Vectors", key: key, updateExpression: "SET emb = :v", expressionAttributeValues: [":v": vector]))
        case 3:
            let update = Bool.random(using: &random) ? "REMOVE emb" : "REMOVE tenant"
            _ = try database.updateItem(UpdateItemInput(tableName: "Vectors", key: key, updateExpression: update))
        case 4:
            _ = try database.deleteItem(DeleteItemInput(tableName: "Vectors", key: key))
        default:
            var requests: [String: WriteRequest] = [:]
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let other = Int.random(in: 0..<keys, using: &random)
                requests["k\(other)"] =
                    Bool.random(using: &random)
                    ? WriteRequest(putRequest: PutRequest(item: randomItem(other, &random, wrongLength: false)))
                    : WriteRequest(deleteRequest: DeleteRequest(key: ["pk": .s("k\(other)")]))
            }
            _ = try database.batchWriteItem(BatchWriteItemInput(requestItems: ["Vectors": Array(requests.values)]))
        }
    }

    /// The index's stored entries, and those a build from scratch makes of the table's items now
    /// (into a scratch index table, dropped again).
    static func entriesAndFromScratch(_ database: Database) throws -> (stored: [StoredKey: VectorEntry], fresh: [StoredKey: VectorEntry]) {
        let table = try database.table(named: "Vectors")
        let index = try building(database)
        var scratch = index
        scratch.storageNumber = 99
        return try database.write { state in
            let stored = try VectorStore(table: table, index: index, connection: state.connection).all()
            let store = VectorStore(table: table, index: scratch, connection: state.connection)
            try store.create()
            var cursor: StoredKey?
            repeat { cursor = try store.fill(after: cursor, limit: 1_000) } while cursor != nil
            let fresh = try store.all()
            try store.drop()
            return (stored, fresh)
        }
    }

    /// One chunk of the build of `vix`, of at most `limit` items, after `cursor`.
    static func step(_ database: Database, after cursor: Database.BackfillCursor?, limit: Int) throws -> Database.BackfillStep {
        try database.vectorBackfillStep(table: database.table(named: "Vectors"), index: building(database), after: cursor, limit: limit)
    }

    /// Runs the build to the end on the calling thread, in chunks of at most `limit` items.
    static func finish(_ database: Database, limit: Int = Database.vectorBackfillChunkSize) throws {
        var cursor: Database.BackfillCursor?
        while case .more(let after) = try step(database, after: cursor, limit: limit) {
            cursor = after
        }
    }

    @Test("writes and deletes between backfill chunks leave the index equal to a build from scratch", arguments: [UInt64(1), 2, 3, 0xBAC_F111])
    func writesRacingChunks(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        try F.makeTable(database, indexes: [])
        let keys = 400
        for number in 0..<300 {
            _ = try database.putItem(PutItemInput(tableName: "Vectors", item: Self.randomItem(number, &random, wrongLength: true)))
        }
        let hashed = Bool.random(using: &random)
        let response = try #require(try Self.addIndex(database, hashed: hashed).tableDescription.vectorIndexes?.first)
        #expect(response.indexStatus == .creating && response.backfilling == false)
        #expect(try Self.building(database).building == true)
        var cursor: Database.BackfillCursor?
        var chunks = 0
        steps: while true {
            for _ in 0..<Int.random(in: 0...12, using: &random) { try Self.randomWrite(database, &random, keys: keys) }
            // A write the new index refuses is refused while it builds.
            #expect(throws: EngineMessages.vectorSize("emb", expected: Self.dimensions, actual: 2, index: "vix")) {
                _ = try database.putItem(PutItemInput(tableName: "Vectors", item: ["pk": .s("k0"), "emb": F.vector([1, 2])]))
            }
            let described = try Self.described(database)
            #expect(described.indexStatus == .creating && described.backfilling == true, "seed \(seed) chunk \(chunks)")
            #expect(throws: EngineMessages.cannotSearchBackfilling("vix")) {
                try database.searchVectors(
                    SearchVectorsInput(
                        tableName: "Vectors", indexName: "vix", expressionAttributeValues: hashed ? [":t": .s("a")] : nil,
                        searchVector: F.search([0, 0, 0, 0]), searchConditionExpression: hashed ? "tenant = :t" : nil, topK: 3))
            }
            let step = try Self.step(database, after: cursor, limit: Int.random(in: 1...40, using: &random))
            chunks += 1
            // The index's live ItemCount and IndexSizeBytes, kept by the writes and the chunks,
            // are its rows' after every chunk.
            #expect(try database.checkInvariants().violations == [], "seed \(seed) chunk \(chunks)")
            switch step {
            case .more(let after): cursor = after
            case .finished: break steps
            case .abandoned:
                Issue.record("seed \(seed): the build was abandoned")
                return
            }
        }
        #expect(chunks > 5, "seed \(seed): the build took \(chunks) chunks")
        #expect(try Self.building(database).building == nil)
        try database.clock.advance(by: Database.vectorBackfillSeconds)
        let active = try Self.described(database)
        #expect(active.indexStatus == .active && active.backfilling == nil)
        let (stored, fresh) = try Self.entriesAndFromScratch(database)
        #expect(stored == fresh, "seed \(seed)")
        #expect(active.itemCount == fresh.count)
        #expect(try database.checkInvariants().violations == [], "seed \(seed)")
    }

    @Test("the index is CREATING until both its last chunk and its backfilling second of the server clock are done")
    func statusOnTheServerClock() throws {
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        try F.makeTable(database, indexes: [])
        for number in 0..<50 {
            _ = try database.putItem(
                PutItemInput(tableName: "Vectors", item: ["pk": .s("k\(number)"), "tenant": .s("a"), "emb": F.vector([Float(number), 0, 0, 1])]))
        }
        try Self.addIndex(database)
        // The clock past the backfilling second, the chunks not run: still CREATING.
        try database.clock.advance(by: 10 * Database.vectorBackfillSeconds)
        #expect(try Self.described(database).backfilling == true)
        try Self.finish(database, limit: 7)
        #expect(try Self.described(database).indexStatus == .active)
        let found = try database.searchVectors(
            SearchVectorsInput(
                tableName: "Vectors", indexName: "vix", expressionAttributeValues: [":t": .s("a")], searchVector: F.search([49, 0, 0, 1]),
                searchConditionExpression: "tenant = :t", topK: 2))
        #expect(F.keys(found) == ["k49", "k48"])

        // The chunks done at once, the clock not moved: CREATING until it passes the second.
        _ = try database.updateTable(
            UpdateTableInput(tableName: "Vectors", vectorIndexUpdates: [VectorIndexUpdate(delete: DeleteVectorIndexAction(indexName: "vix"))]),
            now: database.clock.now())
        try Self.addIndex(database)
        // One index change at a time: the building index can be neither deleted nor joined by another.
        #expect(throws: IndexUpdates.onlineIndexLimit) {
            _ = try database.updateTable(
                UpdateTableInput(tableName: "Vectors", vectorIndexUpdates: [VectorIndexUpdate(delete: DeleteVectorIndexAction(indexName: "vix"))]),
                now: database.clock.now())
        }
        try Self.finish(database)
        #expect(try Self.described(database).backfilling == true)
        try database.clock.advance(by: Database.vectorBackfillSeconds)
        #expect(try Self.described(database).indexStatus == .active)
    }

    @Test("an index added to an empty table is ACTIVE at once, with nothing to build")
    func emptyTable() throws {
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        try F.makeTable(database, indexes: [])
        try Self.addIndex(database)
        #expect(try Self.building(database).building == nil)
        #expect(try Self.described(database).indexStatus == .active)
    }

    @Test("a build stopped mid-way (committed chunks, writes since) starts over when the database is opened again")
    func resumesAfterStop() throws {
        try DatabaseTests.withDatabaseFile { path in
            var random = SeededRandom(seed: 40)
            do {
                let database = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
                try F.makeTable(database, indexes: [])
                for number in 0..<600 {
                    _ = try database.putItem(PutItemInput(tableName: "Vectors", item: Self.randomItem(number, &random, wrongLength: true)))
                }
                try Self.addIndex(database)
                var cursor: Database.BackfillCursor?
                for _ in 0..<3 {
                    guard
                        case .more(let after) = try Self.step(database, after: cursor, limit: 100)
                    else {
                        Issue.record("600 items take more than three chunks of 100")
                        return
                    }
                    cursor = after
                    for _ in 0..<20 { try Self.randomWrite(database, &random, keys: 700) }
                }
            }
            do {
                // Opened only to look: still building, and searches refused.
                let inspected = try Database(path: path, region: "us-east-1", resumeBackgroundWork: false)
                #expect(try Self.building(inspected).building == true)
                #expect(try Self.described(inspected).backfilling == true)
            }
            let reopened = try Database(path: path, region: "us-east-1")
            let deadline = Date().addingTimeInterval(30)
            while try Self.building(reopened).building == true {
                try #require(Date() < deadline, "the resumed build did not finish in 30 s")
                Thread.sleep(forTimeInterval: 0.01)
            }
            let (stored, fresh) = try Self.entriesAndFromScratch(reopened)
            #expect(stored == fresh)
            #expect(try reopened.checkInvariants().violations == [])
        }
    }

    @Test("a build running when a snapshot is restored stops; the restored build indexes every item")
    func snapshotRestoredMidBuild() throws {
        let database = try Database(path: nil, region: "us-east-1", resumeBackgroundWork: false)
        try F.makeTable(database, indexes: [])
        var random = SeededRandom(seed: 41)
        for number in 0..<200 {
            _ = try database.putItem(PutItemInput(tableName: "Vectors", item: Self.randomItem(number, &random, wrongLength: true)))
        }
        try Self.addIndex(database)
        let snapshot = try database.takeSnapshot()
        guard
            case .more(let cursor) = try Self.step(database, after: nil, limit: 50)
        else {
            Issue.record("200 items take more than one chunk of 50")
            return
        }
        try database.restore(snapshot)
        guard
            case .abandoned = try Self.step(database, after: cursor, limit: 50)
        else {
            Issue.record("the build went on over the restored contents")
            return
        }
        try Self.finish(database, limit: 50)
        let (stored, fresh) = try Self.entriesAndFromScratch(database)
        #expect(stored == fresh && !fresh.isEmpty)
        #expect(try database.checkInvariants().violations == [])
    }
}
