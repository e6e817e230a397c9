import DynamoAPI
import DynamoClient
import DynamoStore
import Testing

/// A recollection of an assistant: a 3-dimension embedding under each distance function, one index
/// restricted by owner (and filterable by kind), one keys-only.
final class Recollection: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(
            tableName: "Recollections",
            vectorIndexes: [
                .vector("byCosine", attribute: "embedding", dimensions: 3, distance: .cosine),
                .vector("byEuclid", attribute: "embedding", dimensions: 3, distance: .euclidean),
                .vector("byDot", attribute: "embedding", dimensions: 3, distance: .dotProduct),
                .vector("byOwner", attribute: "embedding", dimensions: 3, distance: .euclidean, partitionKey: "owner", filters: ["kind"]),
                .vector("keysOnly", attribute: "embedding", dimensions: 3, distance: .euclidean, projection: .keysOnly),
            ])
    }
    @Attribute var id: String
    @Attribute var owner: String?
    @Attribute var kind: String?
    @Attribute var text = ""
    @Attribute var embedding: [Float] = []
}

/// Another entity with a vector index of its own, over a `[Double]`.
final class Passage: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(tableName: "Passages", vectorIndexes: [.vector("byVector", attribute: "vector", dimensions: 2)])
    }
    @Attribute var id: String
    @Attribute var vector: [Double] = []
}

/// The scores DynamoDB's distance functions give, in f32 as the index computes them.
enum ReferenceDistance {
    static func score(_ distance: EntityVectorIndex.Distance, _ a: [Float], _ b: [Float]) -> Float {
        var dot: Float = 0, normA: Float = 0, normB: Float = 0, squares: Float = 0
        for (x, y) in zip(a, b) {
            dot += x * y
            normA += x * x
            normB += y * y
            squares += (x - y) * (x - y)
        }
        switch distance {
        case .cosine: return normA == 0 || normB == 0 ? 1 : 1 - dot / (normA.squareRoot() * normB.squareRoot())
        case .euclidean: return squares.squareRoot()
        case .dotProduct: return dot
        }
    }

    /// Whether `a` ranks before `b` (nearer) under the distance function.
    static func nearer(_ distance: EntityVectorIndex.Distance, _ a: Float, _ b: Float) -> Bool {
        distance == .dotProduct ? a > b : a < b
    }

    /// Equal within f32 rounding of a few operations (the server sums in another order).
    static func close(_ actual: Double, _ expected: Float) -> Bool {
        abs(actual - Double(expected)) <= 1e-5 * max(1, abs(Double(expected)))
    }
}

@Suite struct FetchNearestTests {
    static let types: [ManagedObject.Type] = [Recollection.self, Passage.self]
    static let vectors: [String: [Float]] = [
        "a": [1, 0, 0], "b": [0, 1, 0], "c": [1, 1, 0], "d": [-1, 0, 0], "e": [2, 2, 1], "f": [0.5, -0.25, 3],
    ]

    /// Saves one memory per vector of ``vectors`` (owner ana for a–c, bo for the rest).
    static func saveRecollections(_ fixture: StoreFixture) async throws {
        let context = fixture.context()
        for (id, vector) in vectors {
            let memory = Recollection(context: context)
            memory.id = id
            memory.owner = id < "d" ? "ana" : "bo"
            memory.kind = id == "a" || id == "e" ? "note" : "chat"
            memory.text = "recollection \(id)"
            memory.embedding = vector
        }
        try await context.save()
    }

    @Test func aFloatVectorIsStoredAsAListOfShortestNumbers() async throws {
        try await withStore(types: Self.types) { fixture in
            let context = fixture.context()
            let memory = Recollection(context: context)
            memory.id = "m"
            memory.embedding = [0.1, -2.5, 1e-7]
            let passage = Passage(context: context)
            passage.id = "p"
            passage.vector = [0.1, 1.0 / 3]
            try await context.save()
            let stored = try await fixture.item("Recollections", ["id": .s("m")])
            #expect(
                stored?["embedding"]
                    == .l([.n(try DynamoNumber(parsing: "0.1")), .n(try DynamoNumber(parsing: "-2.5")), .n(try DynamoNumber(parsing: "1e-07"))]))
            let double = try await fixture.item("Passages", ["id": .s("p")])
            #expect(double?["vector"] == (try AttributeValue.vector([0.1, 1.0 / 3] as [Double])))
            let read = try #require(try await fixture.context().existingObject(with: memory.objectID) as? Recollection)
            #expect(read.embedding == [0.1, -2.5, 1e-7])
        }
    }

    @Test func createTablesMakesTheVectorIndexes() async throws {
        try await withStore(types: Self.types) { fixture in
            let table = try await fixture.client.describeTable(DescribeTableInput(tableName: "Recollections")).table
            let indexes = table?.vectorIndexes ?? []
            #expect(Set(indexes.compactMap(\.indexName)) == ["byCosine", "byEuclid", "byDot", "byOwner", "keysOnly"])
            let byOwner = try #require(indexes.first { $0.indexName == "byOwner" })
            #expect(byOwner.searchSchema?.map(\.attributeName) == ["owner", "kind"])
            #expect(byOwner.distanceFunction == .euclidean)
            #expect(byOwner.dimensions == 3)
            #expect(Set(table?.attributeDefinitions?.map(\.attributeName) ?? []) == ["id", "owner", "kind"])
        }
    }

    /// Equal scores (d and e are both √4.25 from the query under euclidean distance) rank by key,
    /// as `docs/vector-search.md` says.
    @Test(arguments: [(index: "byCosine", EntityVectorIndex.Distance.cosine), ("byEuclid", .euclidean), ("byDot", .dotProduct)])
    func savedObjectsComeBackNearestFirstWithTheirScores(index: String, distance: EntityVectorIndex.Distance) async throws {
        try await withStore(types: Self.types) { fixture in
            try await Self.saveRecollections(fixture)
            let query: [Float] = [1, 0.5, 0]
            let context = fixture.context()
            let found = try await context.fetchNearest(Recollection.self, index: index, to: query, k: 4)
            let expected = Self.vectors.map { (id: $0.key, score: ReferenceDistance.score(distance, $0.value, query)) }
                .sorted { $0.score == $1.score ? $0.id < $1.id : ReferenceDistance.nearer(distance, $0.score, $1.score) }.prefix(4)
            #expect(found.map(\.object.id) == expected.map(\.id))
            for (result, reference) in zip(found, expected) {
                #expect(ReferenceDistance.close(result.score, reference.score), "\(result.object.id): \(result.score) vs \(reference.score)")
                // Loaded objects, vector included (SearchVectors leaves it out unless projected).
                #expect(!result.object.isFault)
                #expect(result.object.embedding == Self.vectors[result.object.id])
                #expect(result.object.text == "recollection \(result.object.id)")
            }
            #expect(fixture.transport.count("SearchVectors") == 1)
            #expect(fixture.transport.count("BatchGetItem") + fixture.transport.count("GetItem") == 0)
        }
    }

    @Test func thePartitionKeyEqualityRestrictsTheResults() async throws {
        try await withStore(types: Self.types) { fixture in
            try await Self.saveRecollections(fixture)
            let context = fixture.context()
            let ana = try await context.fetchNearest(Recollection.self, index: "byOwner", to: [1, 0, 0], k: 10, where: ["owner": "ana"])
            #expect(ana.map(\.object.id) == ["a", "c", "b"])
            let boNotes = try await context.fetchNearest(
                Recollection.self, index: "byOwner", to: [1, 0, 0], k: 10, where: ["owner": "bo", "kind": "note"])
            #expect(boNotes.map(\.object.id) == ["e"])
            #expect(try await context.fetchNearest(Recollection.self, index: "byOwner", to: [1, 0, 0], k: 10, where: ["owner": "cy"]).isEmpty)
        }
    }

    @Test func anObjectAlreadyRegisteredKeepsItsUnsavedChanges() async throws {
        try await withStore(types: Self.types) { fixture in
            try await Self.saveRecollections(fixture)
            let context = fixture.context()
            let a = try #require(try await context.existingObject(with: ObjectID(entityName: "Recollection", key: ["id": .s("a")])) as? Recollection)
            a.text = "edited"
            a.embedding = [0, 0, 1] // unsaved: the search ranks the saved vector
            let b = try #require(try await context.existingObject(with: ObjectID(entityName: "Recollection", key: ["id": .s("b")])) as? Recollection)
            context.delete(b)
            let inserted = Recollection(context: context)
            inserted.id = "new"
            inserted.embedding = [1, 0, 0]
            let found = try await context.fetchNearest(Recollection.self, index: "byEuclid", to: [1, 0, 0], k: 3)
            // a (distance 0), c (1), b (√2) is the store's answer; b is deleted here, "new" unsaved.
            #expect(found.map(\.object.id) == ["a", "c"])
            #expect(found.first?.object === a)
            #expect(a.text == "edited")
            #expect(a.embedding == [0, 0, 1])
            #expect(found.first?.score == 0)
        }
    }

    @Test func anIndexThatIsNotAllProjectedGivesFaults() async throws {
        try await withStore(types: Self.types) { fixture in
            try await Self.saveRecollections(fixture)
            let context = fixture.context()
            let found = try await context.fetchNearest(Recollection.self, index: "keysOnly", to: [0, 1, 0], k: 2)
            #expect(found.map { $0.object.objectID.key["id"] } == [.s("b"), .s("c")])
            #expect(found.allSatisfy { $0.object.isFault })
            try await context.load(found.map(\.object))
            #expect(found.map(\.object.text) == ["recollection b", "recollection c"])
        }
    }

    /// With a model version, a row may need its migration (which may read attributes the model no
    /// longer names): the results are read whole with one BatchGetItem, and migrated.
    @Test func withModelVersioningTheResultsAreReadWholeAndMigrated() async throws {
        try await withStore(types: Self.types) { fixture in
            try await Self.saveRecollections(fixture)
            let versioning = ModelVersioning(version: 1) { item, entity, from in
                if entity.name == "Recollection" && from < 1 { item["text"] = .s("migrated") }
            }
            let store = try DynamoStore(types: Self.types, client: fixture.client, modelVersioning: versioning)
            fixture.transport.resetCounts()
            let found = try await ObjectContext(store: store).fetchNearest(Recollection.self, index: "byEuclid", to: [1, 0, 0], k: 2)
            #expect(found.map(\.object.id) == ["a", "c"])
            #expect(found.map(\.object.text) == ["migrated", "migrated"])
            #expect(found.map(\.object.embedding) == [[1, 0, 0], [1, 1, 0]])
            #expect(fixture.transport.count("SearchVectors") == 1)
            #expect(fixture.transport.count("BatchGetItem") == 1)
        }
    }

    @Test func searchesTheStoreRefusesAreRefusedBeforeSending() async throws {
        try await withStore(types: Self.types) { fixture in
            let context = fixture.context()
            await #expect(throws: StoreError.invalidVectorSearch("Recollection has no vector index 'byVector' (it is an index of Passage)")) {
                _ = try await context.fetchNearest(Recollection.self, index: "byVector", to: [1, 0], k: 1)
            }
            await #expect(
                throws: StoreError.invalidVectorSearch(
                    "Recollection vector index byOwner: needs an equality on its partition key 'owner' (where: [\"owner\": …])")
            ) {
                _ = try await context.fetchNearest(Recollection.self, index: "byOwner", to: [1, 0, 0], k: 1, where: ["kind": "note"])
            }
            await #expect(
                throws: StoreError.invalidVectorSearch("Recollection vector index byCosine: 'owner' is not in the index's search schema (none)")
            ) {
                _ = try await context.fetchNearest(Recollection.self, index: "byCosine", to: [1, 0, 0], k: 1, where: ["owner": "ana"])
            }
            await #expect(
                throws: StoreError.invalidVectorSearch("Recollection vector index byCosine: the vector has 2 components; the index has 3 dimensions")
            ) {
                _ = try await context.fetchNearest(Recollection.self, index: "byCosine", to: [1, 0], k: 1)
            }
            await #expect(throws: StoreError.invalidVectorSearch("Recollection vector index byCosine: k is 101; DynamoDB returns 1 to 100 results")) {
                _ = try await context.fetchNearest(Recollection.self, index: "byCosine", to: [1, 0, 0], k: 101)
            }
            #expect(fixture.transport.count("SearchVectors") == 0)
        }
    }

    @Test func theModelRefusesVectorIndexesItCannotStore() throws {
        let entity = {
            var entity = EntityDescription(
                "Bad", hashKey: "id", attributes: [.init("id", .string), .init("name", .string), .init("tags", .stringSet), .init("v", .floatVector)])
            entity.vectorIndexes = [
                .vector("byName", attribute: "name", dimensions: 3),
                .vector("byV", attribute: "v", dimensions: 0, partitionKey: "tags"),
            ]
            return entity
        }()
        #expect(throws: ModelError.self) { try StoreModel([entity]) }
        do throws(ModelError) { _ = try StoreModel([entity]) } catch {
            #expect(
                error.problems == [
                    "Bad vector index byName: attribute 'name' is string; a vector index reads a [Float] or [Double] attribute",
                    "Bad vector index byV: 0 dimensions; DynamoDB allows 1 to 4096",
                    "Bad vector index byV: search-schema property 'tags' is stringSet; it must be a string, number or data attribute",
                ])
        }
    }

    @Test func theModelRefusesMoreThanFiveIndexesAndDisagreeingDimensions() {
        var entity = EntityDescription("Many", hashKey: "id", attributes: [.init("id", .string), .init("v", .floatVector)])
        entity.vectorIndexes = (0..<5).map { .vector("v\($0)", attribute: "v", dimensions: 3) } + [.vector("v5", attribute: "v", dimensions: 4)]
        do throws(ModelError) { _ = try StoreModel([entity]) } catch {
            #expect(
                error.problems == [
                    "Many: 6 vector indexes; DynamoDB allows 5 per table",
                    "Many vector index v5: another vector index of 'v' has 3 dimensions; indexes of one attribute agree",
                ])
            return
        }
        Issue.record("the model was accepted")
    }

    @Test func migrateAddsAVectorIndexToATableWithObjects() async throws {
        let v1 = EntityDescription(
            "Snippet", tableName: "Snippets", hashKey: "id",
            attributes: [.init("id", .string), .init("lang", .string, isOptional: true), .init("vector", .floatVector)])
        try await withStore(model: try StoreModel([v1])) { fixture in
            let context = fixture.context()
            for (id, vector) in [("s1", [1, 0] as [Float]), ("s2", [0, 1]), ("s3", [1, 1])] {
                let snippet = ManagedObject(entity: v1, context: context)
                snippet["id"] = id
                snippet["lang"] = "swift"
                snippet["vector"] = vector
            }
            try await context.save()

            var v2 = v1
            v2.vectorIndexes = [.vector("byVector", attribute: "vector", dimensions: 2, distance: .euclidean, partitionKey: "lang")]
            let store = DynamoStore(model: try StoreModel([v2]), client: fixture.client)
            var steps: [String] = []
            let report = try await store.migrate(pollInterval: .milliseconds(50)) { steps.append($0) }
            #expect(report.createdVectorIndexes == ["Snippets.byVector"])
            #expect(steps.last == "vector index Snippets.byVector is active")
            #expect(try await store.migrate(pollInterval: .milliseconds(50)) == MigrationReport())
            let live = try await fixture.client.describeTable(DescribeTableInput(tableName: "Snippets")).table
            #expect(live?.attributeDefinitions?.contains { $0.attributeName == "lang" } == true)

            let found = try await ObjectContext(store: store).fetchNearest(
                ManagedObject.self, entity: "Snippet", index: "byVector", to: [1, 0.2], k: 2, where: ["lang": "swift"])
            #expect(found.map { $0.object["id"] as? String } == ["s1", "s3"])

            var v3 = v2
            v3.vectorIndexes[0].dimensions = 3
            let changed = DynamoStore(model: try StoreModel([v3]), client: fixture.client)
            await #expect(
                throws: MigrationError(problems: [
                    "Snippets: vector index byVector has 2 dimensions, the model's 3; DynamoDB cannot change a vector index"
                ])
            ) {
                try await changed.migrate(pollInterval: .milliseconds(50))
            }
        }
    }
}
