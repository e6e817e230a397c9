import DynamoAPI
import DynamoClient
import DynamoStore
import Testing

/// Indexes whose partition key is a to-one relationship: stored as the destination's key, so
/// "the stops of a spot" is a Query on the index, not a Scan.
@Suite struct RelationshipIndexTests {
    /// Spots have a numeric key, so the index key is a number; a stop's spot is stored as `sp`.
    static let spot = EntityDescription(
        "Spot", tableName: "Spots", hashKey: "code",
        attributes: [.init("code", .int64), .init("name", .string)],
        relationships: [.init("stops", to: "Stop", inverse: "spot", toMany: true)])
    static let stop = EntityDescription(
        "Stop", tableName: "Stops", hashKey: "id",
        attributes: [.init("id", .string), .init("at", .int64), .init("note", .string, isOptional: true)],
        relationships: [.init("spot", to: "Spot", inverse: "stops", storageName: "sp")],
        indexes: [.global("bySpot", partitionKey: "spot", sortKey: "at")])

    static func model() throws -> StoreModel { try StoreModel([spot, stop]) }

    @Test func aToManyRelationshipCannotBeAnIndexKey() {
        var spot = Self.spot
        spot.indexes = [.global("byStops", partitionKey: "stops"), .global("byName", partitionKey: "name", sortKey: "stops")]
        #expect(
            throws: ModelError(problems: [
                "Spot index byStops: key 'stops' is a to-many relationship, which is stored as a set; an index key must be an attribute or a to-one relationship",
                "Spot index byName: key 'stops' is a to-many relationship, which is stored as a set; an index key must be an attribute or a to-one relationship",
            ])
        ) {
            try StoreModel([spot, Self.stop])
        }
        var stop = Self.stop
        stop.indexes = [.global("byNothing", partitionKey: "nothing")]
        #expect(throws: ModelError(problems: ["Stop index byNothing: key 'nothing' is not an attribute or to-one relationship of Stop"])) {
            try StoreModel([Self.spot, stop])
        }
        // A destination without its entity is reported once, by the relationship check.
        #expect(throws: ModelError(problems: ["Stop.spot: destination entity 'Spot' is not in the model"])) {
            try StoreModel([Self.stop])
        }
    }

    @Test func createTablesKeysTheIndexByTheRelationshipsStorageNameAndDestinationKeyType() async throws {
        try await withStore(model: try Self.model()) { fixture in
            let table = try #require(try await fixture.client.describeTable(DescribeTableInput(tableName: "Stops")).table)
            #expect(
                table.attributeDefinitions == [
                    AttributeDefinition(attributeName: "at", attributeType: .n),
                    AttributeDefinition(attributeName: "id", attributeType: .s),
                    AttributeDefinition(attributeName: "sp", attributeType: .n),
                ])
            let index = try #require(table.globalSecondaryIndexes?.first)
            #expect(index.indexName == "bySpot")
            #expect(
                index.keySchema == [
                    KeySchemaElement(attributeName: "sp", keyType: .hash),
                    KeySchemaElement(attributeName: "at", keyType: .range),
                ])
        }
    }

    /// Two spots; spot 7 has stops s0…s3 at 10, 30, 20, 40; spot 8 has s4 at 50.
    private func seed(_ fixture: StoreFixture) async throws -> (ObjectID, ObjectID) {
        let context = fixture.context()
        let spots = try [7, 8].map { code in
            let spot = ManagedObject(entity: try #require(fixture.store.model.entity(named: "Spot")), context: context)
            spot["code"] = Int64(code)
            spot["name"] = "spot \(code)"
            return spot
        }
        for (index, (at, spot)) in [(10, spots[0]), (30, spots[0]), (20, spots[0]), (40, spots[0]), (50, spots[1])].enumerated() {
            let stop = ManagedObject(entity: try #require(fixture.store.model.entity(named: "Stop")), context: context)
            stop["id"] = "s\(index)"
            stop["at"] = Int64(at)
            stop["spot"] = spot
        }
        try await context.save()
        fixture.transport.resetCounts()
        return (spots[0].objectID, spots[1].objectID)
    }

    private func ids(_ objects: [ManagedObject]) -> [String] { objects.map { $0["id"] as? String ?? "?" } }

    @Test func equalityWithTheDestinationQueriesTheIndexInReverseKeyOrder() async throws {
        try await withStore(model: try Self.model()) { fixture in
            let (seven, _) = try await seed(fixture)
            #expect(try await fixture.item("Stops", ["id": .s("s1")])?["sp"] == .n(DynamoNumber(7)))
            fixture.transport.resetCounts()
            let byObject = try FetchRequest(
                "Stop", in: fixture.store.model,
                predicate: FetchPredicate("spot == %@", seven), sortBy: [.descending("at")])
            let byKeyPath = try FetchRequest(
                "Stop", in: fixture.store.model,
                predicate: FetchPredicate("spot.code == %@", 7), sortBy: [.descending("at")])
            for request in [byObject, byKeyPath] {
                let plan = request.explain()
                #expect(plan.operation == .query && plan.indexName == "bySpot")
                #expect(plan.keyCondition == "#n0 = :v0" && plan.expressionAttributeNames == ["#n0": "sp"])
                #expect(plan.expressionAttributeValues == [":v0": .n(DynamoNumber(7))])
                #expect(plan.scanIndexForward == false && !plan.sortsInMemory && plan.filter == nil && !plan.fetchesFromTable)
                #expect(ids(try await fixture.context().fetch(request)) == ["s3", "s1", "s2", "s0"])
                let counts = ["Query", "Scan", "GetItem", "BatchGetItem"].map { fixture.transport.count($0) }
                #expect(counts == [1, 0, 0, 0])
                fixture.transport.resetCounts()
            }
            // A sort key condition joins the key condition.
            let recent = try FetchRequest(
                "Stop", in: fixture.store.model,
                predicate: FetchPredicate("spot == %@ AND at >= 25", seven), sortBy: [.ascending("at")])
            #expect(recent.explain().keyCondition == "#n0 = :v0 AND #n1 >= :v1" && recent.explain().scanIndexForward == true)
            #expect(ids(try await fixture.context().fetch(recent)) == ["s1", "s3"])
            #expect(fixture.transport.count("Query") == 1 && fixture.transport.count("Scan") == 0)
        }
    }

    @Test func pendingChangesAreEvaluatedByTheDestinationsKey() async throws {
        try await withStore(model: try Self.model()) { fixture in
            let (seven, eight) = try await seed(fixture)
            let context = fixture.context()
            let spotSeven = try await context.existingObject(with: seven)
            let spotEight = try await context.existingObject(with: eight)
            let stops = try await context.fetch(
                FetchRequest(
                    "Stop", in: fixture.store.model,
                    predicate: FetchPredicate("spot == %@", seven)))
            let moved = try #require(stops.first { $0["id"] as? String == "s1" })
            moved["spot"] = spotEight // leaves spot 7 (unsaved)
            let deleted = try #require(stops.first { $0["id"] as? String == "s2" })
            context.delete(deleted)
            let inserted = ManagedObject(entity: try #require(fixture.store.model.entity(named: "Stop")), context: context)
            inserted["id"] = "s9"
            inserted["at"] = Int64(35)
            inserted["spot"] = spotSeven
            let request = try FetchRequest(
                "Stop", in: fixture.store.model,
                predicate: FetchPredicate("spot == %@", seven), sortBy: [.descending("at")])
            #expect(ids(try await context.fetch(request)) == ["s3", "s9", "s0"])
            let atEight = try FetchRequest(
                "Stop", in: fixture.store.model,
                predicate: FetchPredicate("spot.code == 8"), sortBy: [.descending("at")])
            #expect(ids(try await context.fetch(atEight)) == ["s4", "s1"])
            #expect(try await context.count(for: request) == 3)
            var unsavedIgnored = request
            unsavedIgnored.includesPendingChanges = false
            #expect(ids(try await context.fetch(unsavedIgnored)) == ["s3", "s1", "s2", "s0"])
        }
    }
}
