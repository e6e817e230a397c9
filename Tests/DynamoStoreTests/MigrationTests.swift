import DynamoAPI
import DynamoClient
import DynamoStore
import Testing

/// `store.migrate()`: the model grows a table and an index; a changed key is refused.
@Suite struct MigrationTests {
    static let v1 = EntityDescription(
        "Spot", tableName: "Spots", hashKey: "code",
        attributes: [.init("code", .string), .init("name", .string), .init("city", .string, isOptional: true)])

    @Test func migrateCreatesMissingTablesAndIndexesAndRefusesKeyChanges() async throws {
        try await withStore(model: try StoreModel([Self.v1])) { fixture in
            let context = fixture.context()
            let spot = ManagedObject(entity: Self.v1, context: context)
            spot["code"] = "a"
            spot["name"] = "A"
            spot["city"] = "Oslo"
            try await context.save()

            var v2 = Self.v1
            v2.indexes = [.global("byCity", partitionKey: "city")]
            let note = EntityDescription("Note", tableName: "Notes", hashKey: "id", attributes: [.init("id", .string)])
            let store = DynamoStore(model: try StoreModel([v2, note]), client: fixture.client)
            var steps: [String] = []
            let report = try await store.migrate(pollInterval: .milliseconds(10)) { steps.append($0) }
            #expect(report.createdTables == ["Notes"])
            #expect(report.createdIndexes == ["Spots.byCity"])
            #expect(steps.last == "index Spots.byCity is active")
            // The backfilled index answers a fetch that plans a Query on it.
            let request = try FetchRequest("Spot", in: store.model, predicate: FetchPredicate("city == 'Oslo'"))
            #expect(request.explain().operation == .query)
            #expect(try await ObjectContext(store: store).fetch(request).count == 1)
            #expect(try await store.migrate(pollInterval: .milliseconds(10)) == MigrationReport())

            let rekeyed = EntityDescription(
                "Spot", tableName: "Spots", hashKey: "name",
                attributes: [.init("code", .string), .init("name", .string)])
            let wrong = DynamoStore(model: try StoreModel([rekeyed]), client: fixture.client)
            await #expect(throws: MigrationError(problems: ["Spots: key schema is code HASH, the model's is name HASH"])) {
                try await wrong.migrate(pollInterval: .milliseconds(10))
            }
        }
    }
}
