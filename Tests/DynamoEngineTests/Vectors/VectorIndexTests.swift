import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Vector indexes in the catalog, their maintenance by writes and SearchVectors' answers.
@Suite("Vector indexes")
struct VectorIndexTests {
    typealias F = VectorFixtures

    static func put(_ database: Database, _ key: String, _ vector: [Float], _ extra: Item = [:]) throws {
        var item: Item = ["pk": .s(key), "emb": F.vector(vector)]
        item.merge(extra) { $1 }
        _ = try database.putItem(PutItemInput(tableName: "Vectors", item: item))
    }

    static func search(
        _ database: Database, _ vector: [Float], topK: Int = 10, index: String = "vix", condition: String? = nil,
        values: [String: AttributeValue]? = nil, projection: String? = nil
    ) throws -> SearchVectorsOutput {
        try database.searchVectors(
            SearchVectorsInput(
                tableName: "Vectors", indexName: index, expressionAttributeValues: values, projectionExpression: projection,
                searchVector: F.search(vector), searchConditionExpression: condition, topK: topK))
    }

    @Test("CreateTable keeps the index; DescribeTable reports it with its counts")
    func catalog() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(database, indexes: [F.index(dimensions: 2, schema: [("tenant", .hash)])], definitions: ["tenant"])
        try Self.put(database, "a", [1, 0], ["tenant": .s("t")])
        try Self.put(database, "b", [0, 1]) // no HASH attribute: not indexed
        let description = try database.describeTable(named: "Vectors").tableDescription
        let index = try #require(description.vectorIndexes?.first)
        #expect(index.indexName == "vix" && index.dimensions == 2 && index.indexStatus == .active && index.backfilling == nil)
        #expect(index.itemCount == 1 && (index.indexSizeBytes ?? 0) > 0)
        #expect(index.indexArn == "arn:aws:dynamodb:us-east-1:000000000000:table/Vectors/index/vix")
        #expect(description.attributeDefinitions?.map(\.attributeName) == ["pk", "tenant"])
    }

    @Test("CreateTable's refusals, in the service's words")
    func createRefusals() throws {
        let database = try Database(path: nil, region: "us-east-1")
        #expect(throws: EngineMessages.vectorIndexesOnlyOnDemand) {
            try F.makeTable(database, indexes: [F.index(dimensions: 2)], billing: .provisioned)
        }
        #expect(throws: EngineMessages.searchSchemaAttributeUndefined) {
            try F.makeTable(database, indexes: [F.index(dimensions: 2, schema: [("tenant", .hash)])])
        }
        #expect(throws: EngineMessages.vectorDimensionsOutOfRange) { try F.makeTable(database, indexes: [F.index(dimensions: 4097)]) }
        #expect(throws: EngineMessages.vectorIndexCountExceedsCreate) {
            try F.makeTable(database, indexes: (0..<6).map { F.index("vix\($0)", dimensions: 2) })
        }
        #expect(throws: EngineMessages.vectorDimensionsDisagree("emb")) {
            try F.makeTable(database, indexes: [F.index("one", dimensions: 2), F.index("two", dimensions: 3)])
        }
        #expect(throws: EngineMessages.vectorAttributeDefined("emb")) {
            try F.makeTable(database, indexes: [F.index(dimensions: 2)], definitions: ["emb"])
        }
        #expect(throws: EngineMessages.searchSchemaTooManyHash) {
            try F.makeTable(database, indexes: [F.index(dimensions: 2, schema: [("a", .hash), ("b", .hash)])], definitions: ["a", "b"])
        }
        #expect(database.tables.isEmpty)
    }

    @Test("writes of vectors the index cannot hold are refused; others leave the item out")
    func writeRules() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(database, indexes: [F.index(dimensions: 3, schema: [("tenant", .hash)])], definitions: ["tenant"])
        #expect(throws: EngineMessages.vectorSize("emb", expected: 3, actual: 2, index: "vix")) { try Self.put(database, "x", [1, 0]) }
        #expect(throws: EngineMessages.vectorElementType("emb", position: 1, actual: "S", index: "vix")) {
            _ = try database.putItem(
                PutItemInput(tableName: "Vectors", item: ["pk": .s("x"), "emb": .l([.n(DynamoNumber(1)), .s("a"), .n(DynamoNumber(0))])]))
        }
        #expect(throws: EngineMessages.vectorElementType("emb", position: 0, actual: "N", index: "vix")) {
            // A number no f32 holds.
            _ = try database.putItem(
                PutItemInput(
                    tableName: "Vectors",
                    item: ["pk": .s("x"), "emb": .l([.n(try DynamoNumber(parsing: "1e39")), .n(DynamoNumber(0)), .n(DynamoNumber(0))])]))
        }
        #expect(throws: EngineMessages.vectorNotAList("emb", index: "vix")) {
            _ = try database.putItem(PutItemInput(tableName: "Vectors", item: ["pk": .s("x"), "emb": .ns([DynamoNumber(1)])]))
        }
        #expect(throws: EngineMessages.emptyIndexKeyValue(kind: "string", name: "vix", attributeName: "tenant")) {
            try Self.put(database, "x", [1, 0, 0], ["tenant": .s("")])
        }
        #expect(try database.getItem(GetItemInput(tableName: "Vectors", key: ["pk": .s("x")])).json == nil)
        try Self.put(database, "no-tenant", [1, 0, 0])
        _ = try database.putItem(PutItemInput(tableName: "Vectors", item: ["pk": .s("no-vector"), "tenant": .s("t")]))
        #expect(try database.describeTable(named: "Vectors").vectorIndexStatistics["vix"]?.itemCount == 0)
        #expect(try database.checkInvariants().violations.isEmpty)
    }

    @Test("scores and order of the three distance functions; ties by key")
    func scores() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(
            database,
            indexes: [
                F.index("cos", dimensions: 2), F.index("l2x", dimensions: 2, function: .euclidean),
                F.index("dot", dimensions: 2, function: .dotProduct),
            ])
        for (key, vector) in [("e", [Float(1), 0]), ("n", [0, 2]), ("w", [-3, 0]), ("ne", [1, 1])] { try Self.put(database, key, vector) }
        let cosine = try Self.search(database, [1, 0], index: "cos")
        #expect(F.keys(cosine) == ["e", "ne", "n", "w"])
        #expect(cosine.searchResults?.map { $0.score! } == [0, Double(1 - Float(1) / Float(2).squareRoot()), 1, 2])
        let euclidean = try Self.search(database, [1, 0], index: "l2x")
        #expect(euclidean.searchResults?.map { $0.score! } == [0, 1, Double(Float(5).squareRoot()), 4])
        let dot = try Self.search(database, [1, 0], index: "dot")
        // e and ne both score 1: the smaller key first.
        #expect(F.keys(dot) == ["e", "ne", "n", "w"] && dot.searchResults?.map { $0.score! } == [1, 1, 0, -3])
        #expect(F.keys(try Self.search(database, [1, 0], topK: 1, index: "dot")) == ["e"])
    }

    @Test("SearchVectors' checks, in order")
    func searchRefusals() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(
            database, indexes: [F.index(dimensions: 2, schema: [("tenant", .hash), ("kind", .inlineFilter)])], definitions: ["tenant", "kind"])
        let t: [String: AttributeValue] = [":t": .s("a")]
        #expect(throws: EngineMessages.topKOutOfRange(101)) { try Self.search(database, [1, 0], topK: 101, index: "nope") }
        #expect(throws: EngineMessages.tableHasNoIndexNamed(indexName: "nope")) { try Self.search(database, [1, 0], index: "nope") }
        #expect(throws: EngineMessages.searchVectorDimension(3, index: 2)) { try Self.search(database, [1, 0, 0]) }
        #expect(throws: EngineMessages.searchConditionRequired) { try Self.search(database, [1, 0]) }
        #expect(throws: EngineMessages.searchConditionComparator) { try Self.search(database, [1, 0], condition: "tenant <> :t", values: t) }
        #expect(throws: EngineMessages.searchConditionComparator) {
            try Self.search(database, [1, 0], condition: "begins_with(tenant, :t)", values: t)
        }
        #expect(throws: EngineMessages.searchConditionMissingHash) { try Self.search(database, [1, 0], condition: "kind = :t", values: t) }
        #expect(throws: EngineMessages.searchConditionOutsideSchema("title")) {
            try Self.search(database, [1, 0], condition: "tenant = :t AND title = :t", values: t)
        }
        #expect(throws: EngineMessages.searchConditionRepeated("tenant")) {
            try Self.search(database, [1, 0], condition: "tenant = :t AND tenant = :t", values: t)
        }
        #expect(throws: EngineMessages.conditionTypeMismatch) {
            try Self.search(database, [1, 0], condition: "tenant = :t", values: [":t": .n(DynamoNumber(1))])
        }
        #expect(throws: EngineMessages.searchVectorInvalidValues) {
            try database.searchVectors(
                SearchVectorsInput(tableName: "Vectors", indexName: "vix", searchVector: [.s("x"), .n(DynamoNumber(1))], topK: 1))
        }
    }

    @Test("Query, Scan and PartiQL refuse a vector index")
    func otherReadsRefused() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(database, indexes: [F.index(dimensions: 2)])
        #expect(throws: EngineMessages.operationNotOnVectorIndex("Scan")) {
            try database.scan(ScanInput(tableName: "Vectors", indexName: "vix"))
        }
        #expect(throws: EngineMessages.operationNotOnVectorIndex("Query")) {
            try database.query(
                QueryInput(
                    tableName: "Vectors", indexName: "vix", keyConditionExpression: "pk = :p", expressionAttributeValues: [":p": .s("a")]))
        }
    }

    @Test("an index added to a table with items backfills on the server clock; the build holds every item")
    func backfill() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(database, indexes: [F.index("first", dimensions: 2)])
        for key in 0..<20 { try Self.put(database, "k\(key)", [Float(key), 1]) }
        try Self.put(database, "short", [1, 1])
        // An item whose other attribute is no 3-vector stays out of the new index, as a backfill leaves it out.
        _ = try database.updateItem(
            UpdateItemInput(
                tableName: "Vectors", key: ["pk": .s("short")], updateExpression: "SET v3 = :v", expressionAttributeValues: [":v": F.vector([1])]))
        for key in 0..<20 {
            _ = try database.updateItem(
                UpdateItemInput(
                    tableName: "Vectors", key: ["pk": .s("k\(key)")], updateExpression: "SET v3 = :v",
                    expressionAttributeValues: [":v": F.vector([Float(key), 0, 0])]))
        }
        let updated = try database.updateTable(
            UpdateTableInput(
                tableName: "Vectors",
                vectorIndexUpdates: [
                    VectorIndexUpdate(
                        create: CreateVectorIndexAction(
                            indexName: "second", vectorAttribute: VectorAttributeDefinition(attributeName: "v3"),
                            projection: Projection(projectionType: .keysOnly), dimensions: 3, distanceFunction: .euclidean))
                ]), now: database.clock.now())
        let response = try #require(updated.tableDescription.vectorIndexes?.first { $0.indexName == "second" })
        #expect(response.indexStatus == .creating && response.backfilling == false)
        let described = try #require(try database.describeTable(named: "Vectors").tableDescription.vectorIndexes?.first { $0.indexName == "second" })
        #expect(described.indexStatus == .creating && described.backfilling == true)
        #expect(throws: EngineMessages.cannotSearchBackfilling("second")) { try Self.search(database, [0, 0, 0], index: "second") }
        try database.clock.advance(by: Database.vectorBackfillSeconds)
        // The build runs in the background; here, to its end, unless it is done already.
        try database.runIndexWork(table: database.table(named: "Vectors"), index: "second")
        let active = try #require(try database.describeTable(named: "Vectors").tableDescription.vectorIndexes?.first { $0.indexName == "second" })
        #expect(active.indexStatus == .active && active.backfilling == nil && active.itemCount == 20)
        let found = try Self.search(database, [19, 0, 0], topK: 3, index: "second")
        #expect(F.keys(found) == ["k19", "k18", "k17"])
        // KEYS_ONLY: the key and (not asked for) no vector.
        #expect(found.searchResults?.first?.item == ["pk": .s("k19")])
        // A write that breaks the new index is refused now that it exists.
        #expect(throws: EngineMessages.vectorSize("v3", expected: 3, actual: 1, index: "second")) {
            _ = try database.updateItem(
                UpdateItemInput(
                    tableName: "Vectors", key: ["pk": .s("k1")], updateExpression: "SET v3 = :v", expressionAttributeValues: [":v": F.vector([1])]))
        }
        _ = try database.updateTable(
            UpdateTableInput(tableName: "Vectors", vectorIndexUpdates: [VectorIndexUpdate(delete: DeleteVectorIndexAction(indexName: "second"))]),
            now: database.clock.now())
        #expect(try database.describeTable(named: "Vectors").definition.vectorIndexes.map(\.name) == ["first"])
        #expect(throws: EngineMessages.tableHasNoIndexNamed(indexName: "second")) { try Self.search(database, [0, 0, 0], index: "second") }
    }

    @Test("entries are on disk: a reopened database searches without a rebuild, and old catalogs read")
    func persistence() throws {
        try DatabaseTests.withDatabaseFile { path in
            do {
                let database = try Database(path: path, region: "us-east-1")
                try DatabaseTests.makeTable(database)
                try F.makeTable(database, indexes: [F.index(dimensions: 2, function: .euclidean)])
                for key in 0..<10 { try Self.put(database, "k\(key)", [Float(key), 0]) }
            }
            let reopened = try Database(path: path, region: "us-east-1")
            #expect(reopened.tables["Things"]?.vectorIndexes.isEmpty == true)
            #expect(F.keys(try Self.search(reopened, [3.2, 0], topK: 2)) == ["k3", "k4"])
        }
    }

    @Test("the in-memory entries stay current across writes to other tables and reload after a write to their own")
    func cacheStamps() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        try F.makeTable(database, indexes: [F.index(dimensions: 2, function: .euclidean)])
        for key in 0..<4 { try Self.put(database, "k\(key)", [Float(key), 0]) }
        let table = try database.table(named: "Vectors")
        let index = try #require(table.vectorIndexes.first)
        let cached = { database.vectorCaches.current(table: table, index: index, stamp: database.vectorCaches.stamp(of: table)) }

        #expect(F.keys(try Self.search(database, [2.9, 0], topK: 1)) == ["k3"])
        let loaded = try #require(cached())
        // Writes of every kind to another table leave the cache as it was.
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a")]))
        _ = try database.batchWriteItem(
            BatchWriteItemInput(requestItems: ["Things": [WriteRequest(putRequest: PutRequest(item: ["pk": .s("b")]))]]))
        _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("a")]))
        #expect(cached() === loaded)
        #expect(F.keys(try Self.search(database, [2.9, 0], topK: 1)) == ["k3"])

        // Each way of writing the table's own items makes the next search see the write.
        _ = try database.transactWriteItems(
            TransactWriteItemsInput(transactItems: [
                TransactWriteItem(put: Put(item: ["pk": .s("k9"), "emb": F.vector([5, 0])], tableName: "Vectors"))
            ]), now: database.clock.now())
        #expect(cached() == nil)
        #expect(F.keys(try Self.search(database, [5, 0], topK: 1)) == ["k9"])
        _ = try database.batchWriteItem(
            BatchWriteItemInput(requestItems: ["Vectors": [WriteRequest(deleteRequest: DeleteRequest(key: ["pk": .s("k9")]))]]))
        #expect(F.keys(try Self.search(database, [5, 0], topK: 1)) == ["k3"])
        _ = try database.executeStatement(
            ExecuteStatementInput(statement: #"UPDATE "Vectors" SET emb = [10, 0] WHERE pk = 'k0'"#), now: database.clock.now())
        #expect(F.keys(try Self.search(database, [9, 0], topK: 1)) == ["k0"])
        #expect(cached() != nil)
        // A definition change anywhere (a new table) marks every cache stale.
        try DatabaseTests.makeTable(database, name: "More")
        #expect(cached() == nil)
    }

    @Test("writes report VectorWriteRequestBytes per vector index whose indexed attributes they change, with INDEXES only")
    func vectorWriteBytes() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(
            database, indexes: [F.index(dimensions: 2), F.index("tenants", dimensions: 2, schema: [("tenant", .hash)])],
            definitions: ["tenant"])
        func put(_ item: Item, _ mode: ReturnConsumedCapacity = .indexes) throws -> ConsumedCapacity? {
            try database.putItem(PutItemInput(tableName: "Vectors", item: item)).capacity.shape(table: "Vectors", mode: mode)
        }
        func written(_ capacity: ConsumedCapacity?) -> [String: Double]? {
            capacity?.vectorIndexes?.mapValues { $0.vectorWriteRequestBytes ?? -1 }
        }
        let item: Item = ["pk": .s("a"), "emb": F.vector([1, 2]), "tenant": .s("t"), "note": .s("x")]
        let size = Double(ItemSize.of(item))
        let first = try put(item)
        #expect(written(first) == ["vix": size, "tenants": size])
        #expect(first?.capacityUnits == 1 && first?.table?.capacityUnits == 1)
        // TOTAL carries no split, vector indexes' included.
        #expect(try put(["pk": .s("b"), "emb": F.vector([3, 4])], .total)?.vectorIndexes == nil)
        // The same indexed attributes again, or another attribute changed: nothing replicated.
        #expect(written(try put(item)) == nil)
        var noted = item
        noted["note"] = .s("a longer note")
        #expect(written(try put(noted)) == nil)
        // A new HASH value moves the item in the index that has it, not in the other.
        noted["tenant"] = .s("u")
        #expect(written(try put(noted)) == ["tenants": Double(ItemSize.of(noted))])
        let update = try database.updateItem(
            UpdateItemInput(
                tableName: "Vectors", key: ["pk": .s("a")], updateExpression: "SET emb = :v",
                expressionAttributeValues: [":v": F.vector([5, 6])]))
        var updated = noted
        updated["emb"] = F.vector([5, 6])
        #expect(
            written(update.capacity.shape(table: "Vectors", mode: .indexes)) == [
                "vix": Double(ItemSize.of(updated)), "tenants": Double(ItemSize.of(updated)),
            ])
        // A delete replicates the removal of the entries the item had.
        let deleted = try database.deleteItem(DeleteItemInput(tableName: "Vectors", key: ["pk": .s("b")]))
        #expect(
            written(deleted.capacity.shape(table: "Vectors", mode: .indexes)) == [
                "vix": Double(ItemSize.of(["pk": .s("b"), "emb": F.vector([3, 4])]))
            ])
    }

    @Test("backups keep vector indexes; a restore can override them")
    func backups() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(database, indexes: [F.index(dimensions: 2)])
        try Self.put(database, "a", [1, 0])
        let backup = try database.createBackup(CreateBackupInput(tableName: "Vectors", backupName: "vectors"), now: database.clock.now())
        let arn = try #require(backup.backupDetails?.backupArn)
        #expect(
            try database.describeBackup(DescribeBackupInput(backupArn: arn)).backupDescription?.sourceTableFeatureDetails?.vectorIndexes?.first?
                .indexName == "vix")
        _ = try database.restoreTableFromBackup(RestoreTableFromBackupInput(targetTableName: "Copy", backupArn: arn), now: database.clock.now())
        let restored = try database.searchVectors(SearchVectorsInput(tableName: "Copy", indexName: "vix", searchVector: F.search([1, 0]), topK: 1))
        #expect(F.keys(restored) == ["a"])
        _ = try database.restoreTableFromBackup(
            RestoreTableFromBackupInput(
                targetTableName: "Other", backupArn: arn, vectorIndexOverride: [F.index("dots", dimensions: 2, function: .dotProduct)]),
            now: database.clock.now())
        #expect(try database.table(named: "Other").vectorIndexes.map(\.name) == ["dots"])
        let other = try database.searchVectors(SearchVectorsInput(tableName: "Other", indexName: "dots", searchVector: F.search([2, 0]), topK: 1))
        #expect(other.searchResults?.first?.score == 2)
        _ = try database.deleteTable(named: "Copy")
        #expect(try database.checkInvariants().violations.isEmpty)
    }

    @Test("a point-in-time restore rebuilds the vector indexes as of that time; an override's misfits are left out")
    func pointInTimeRestore() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try F.makeTable(database, indexes: [F.index(dimensions: 2, function: .euclidean)])
        _ = try database.updateContinuousBackups(
            UpdateContinuousBackupsInput(tableName: "Vectors", pointInTimeRecoverySpecification: .init(pointInTimeRecoveryEnabled: true)),
            now: database.clock.now())
        try database.clock.advance(by: 10)
        try Self.put(database, "a", [0, 0])
        try Self.put(database, "b", [5, 0])
        try database.clock.advance(by: 10)
        let moment = database.clock.now()
        try database.clock.advance(by: 10)
        try Self.put(database, "a", [9, 9])
        _ = try database.deleteItem(DeleteItemInput(tableName: "Vectors", key: ["pk": .s("b")]))
        try database.clock.advance(by: PITRSettings.latestRestorableLag + 1)
        _ = try database.restoreTableToPointInTime(
            RestoreTableToPointInTimeInput(
                sourceTableName: "Vectors", targetTableName: "Then", restoreDateTime: Timestamp(secondsSince1970: moment)),
            now: database.clock.now())
        let then = try database.searchVectors(SearchVectorsInput(tableName: "Then", indexName: "vix", searchVector: F.search([0, 0]), topK: 5))
        #expect(F.keys(then) == ["a", "b"] && then.searchResults?.map { $0.score! } == [0, 5])
        // An override over the same attribute with three dimensions: no item fits, none is indexed.
        _ = try database.restoreTableToPointInTime(
            RestoreTableToPointInTimeInput(
                sourceTableName: "Vectors", targetTableName: "Three", useLatestRestorableTime: true,
                vectorIndexOverride: [F.index("three", dimensions: 3)]),
            now: database.clock.now())
        let three = try database.searchVectors(
            SearchVectorsInput(tableName: "Three", indexName: "three", searchVector: F.search([0, 0, 1]), topK: 5))
        #expect(three.searchResults?.isEmpty == true)
        #expect(try database.checkInvariants().violations.isEmpty)
    }
}

@Suite("DynamoNumber.floatValue")
struct NumberFloatValueTests {
    @Test(
        "rounds like Float's own parsing of the text",
        arguments: [
            "0.25", "-1.5", "0.001", "123456.789", "1e-30", "3.4e38", "-7", "0.30000000000000004", "-0.7597175060969321", "-12345678901234567890",
            "-1e-40",
        ])
    func matchesText(text: String) throws {
        let number = try DynamoNumber(parsing: text)
        #expect(number.floatValue == Float(text))
    }

    /// Decimals of 10 to 15 significant digits next to the midpoint of two floats, where a
    /// conversion through `Double` rounds twice and can land on the wrong float (seeded).
    @Test("rounds once, also next to a midpoint between two floats")
    func nearMidpoints() throws {
        var generator = SplitMix64(seed: 0xF10A7)
        var checked = 0
        for _ in 0..<20_000 {
            let float = Float(bitPattern: UInt32.random(in: 0x3000_0000..<0x4F00_0000, using: &generator))
            let midpoint = (Double(float) + Double(float.nextUp)) / 2
            let text = String(format: "%.*g", Int.random(in: 10...15, using: &generator), midpoint)
            let number = try DynamoNumber(parsing: text)
            #expect(number.floatValue == Float(text), "\(text)")
            checked += 1
        }
        #expect(checked == 20_000)
    }

    @Test("nil when no finite float holds the number")
    func outOfRange() throws {
        #expect(try DynamoNumber(parsing: "1e39").floatValue == nil)
        #expect(try DynamoNumber(parsing: "-1e125").floatValue == nil)
        #expect(try DynamoNumber(parsing: "0").floatValue == 0)
    }
}
