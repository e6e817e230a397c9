import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import DynamoTestSupport
import Testing

/// Items carry the model version; older items pass through the migration when they are loaded
/// and are written in the new form by the next save of their object.
@Suite struct ModelVersioningTests {
    static let spot = EntityDescription(
        "Spot", tableName: "Spots", hashKey: "id", versionAttribute: "version",
        attributes: [.init("id", .string), .init("name", .string), .init("stars", .int64, isOptional: true), .init("version", .int64)])

    /// Version 1 added `stars` (0 for older spots); version 2 renamed `title` to `name`.
    static let versioning = ModelVersioning(version: 2) { item, entity, from in
        guard entity.name == "Spot" else { return }
        if from < 1 { item["stars"] = item["stars"] ?? .n(DynamoNumber(0)) }
        if from < 2 {
            item["name"] = item["title"] ?? .s("unnamed")
            item["title"] = nil
        }
    }

    private func withVersionedStore(
        _ versioning: ModelVersioning = versioning,
        _ body: (DynamoStore, StoreFixture) async throws -> Void
    ) async throws {
        try await withStore(model: try StoreModel([Self.spot])) { fixture in
            let store = DynamoStore(model: fixture.store.model, client: fixture.client, modelVersioning: versioning)
            try await body(store, fixture)
        }
    }

    private func put(_ fixture: StoreFixture, _ item: Item) async throws {
        _ = try await fixture.client.putItem(PutItemInput(tableName: "Spots", item: item))
    }

    private func spot(_ context: ObjectContext, _ id: String) async throws -> ManagedObject {
        try #require(try await context.existingObject(with: ObjectID(entityName: "Spot", key: ["id": .s(id)])))
    }

    @Test func olderItemsAreMigratedOnLoadAndWrittenByTheNextSaveOfTheirObject() async throws {
        try await withVersionedStore { store, fixture in
            try await put(fixture, ["id": .s("a"), "title": .s("Old"), "version": .n(DynamoNumber(1))])
            try await put(fixture, ["id": .s("b"), "title": .s("Bee"), "version": .n(DynamoNumber(4)), "_modelVersion": .n(DynamoNumber(1))])
            let context = ObjectContext(store: store)
            let a = try await spot(context, "a"), b = try await spot(context, "b")
            #expect(a["name"] as? String == "Old" && a["stars"] as? Int64 == 0)
            #expect(b["name"] as? String == "Bee" && b["stars"] as? Int64 == nil)
            let fetched = try await context.fetch(try FetchRequest("Spot", in: store.model))
            #expect(Set(fetched.compactMap { $0["name"] as? String }) == ["Old", "Bee"])
            #expect(!context.hasChanges)
            try await context.save()
            #expect(try await fixture.item("Spots", ["id": .s("a")])?["title"] == .s("Old"), "loading alone writes nothing")

            a["stars"] = Int64(5)
            try await context.save()
            let stored = try #require(try await fixture.item("Spots", ["id": .s("a")]))
            #expect(
                stored == [
                    "id": .s("a"), "name": .s("Old"), "stars": .n(DynamoNumber(5)),
                    "version": .n(DynamoNumber(2)), "_modelVersion": .n(DynamoNumber(2)),
                ])
            #expect(try await fixture.item("Spots", ["id": .s("b")])?["_modelVersion"] == .n(DynamoNumber(1)))

            // Saved once, the object is current: the next save sends only its own change.
            a["stars"] = Int64(6)
            try await context.save()
            #expect(try await fixture.item("Spots", ["id": .s("a")])?["stars"] == .n(DynamoNumber(6)))

            let c = ManagedObject(entity: Self.spot, context: context)
            c["id"] = "c"
            c["name"] = "New"
            try await context.save()
            #expect(try await fixture.item("Spots", ["id": .s("c")])?["_modelVersion"] == .n(DynamoNumber(2)))
        }
    }

    /// An offline save of a row read in an older model version replays as the online save
    /// would: the update also writes the migration (the model version, the dropped `title`),
    /// after a relaunch of the app too.
    @Test(arguments: [false, true])
    func anOfflineSaveOfAnOlderRowWritesItsMigrationOnReplay(relaunching: Bool) async throws {
        try await withTestServer { endpoint in
            try await withTemporaryDirectory { directory in
                let radio = PhoneRadio(inner: endpoint.transport)
                var configuration = DynamoClient.Configuration(
                    region: "us-east-1", endpoint: endpoint.url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
                configuration.transport = radio
                configuration.retry = .disabled
                let client = try DynamoClient(configuration: configuration)
                let model = try StoreModel([Self.spot])
                try await DynamoStore(model: model, client: client).createTables(pollInterval: .milliseconds(10))
                _ = try await client.putItem(
                    PutItemInput(tableName: "Spots", item: ["id": .s("a"), "title": .s("Old"), "version": .n(DynamoNumber(1))]))
                let path = directory.appendingPathComponent("phone.sqlite").path
                func open() throws -> DynamoStore {
                    DynamoStore(model: model, client: client, modelVersioning: Self.versioning, offline: try OfflineStore(path: path))
                }
                var store = try open()
                let context = ObjectContext(store: store)
                let a = try await spot(context, "a")
                radio.isOffline = true
                a["stars"] = Int64(5)
                try await context.save()
                radio.isOffline = false
                if relaunching { store = try open() }
                #expect(try await store.replayOutbox().map(\.failure) == [nil])
                let stored = try await client.getItem(GetItemInput(tableName: "Spots", key: ["id": .s("a")], consistentRead: true)).item
                #expect(
                    stored == [
                        "id": .s("a"), "name": .s("Old"), "stars": .n(DynamoNumber(5)),
                        "version": .n(DynamoNumber(2)), "_modelVersion": .n(DynamoNumber(2)),
                    ])
            }
        }
    }

    @Test func aNewerItemIsReadAsItIsAndKeepsItsVersion() async throws {
        try await withVersionedStore { store, fixture in
            try await put(fixture, ["id": .s("n"), "name": .s("Next"), "version": .n(DynamoNumber(1)), "_modelVersion": .n(DynamoNumber(3))])
            let context = ObjectContext(store: store)
            let spot = try await spot(context, "n")
            #expect(spot["name"] as? String == "Next")
            spot["stars"] = Int64(1)
            try await context.save()
            #expect(try await fixture.item("Spots", ["id": .s("n")])?["_modelVersion"] == .n(DynamoNumber(3)))
        }
    }

    @Test func aFailingMigrationFailsTheLoadNamingTheVersion() async throws {
        struct Unreadable: Error {}
        let failing = ModelVersioning(version: 1, attributeName: "mv") { _, _, _ in throw Unreadable() }
        try await withVersionedStore(failing) { store, fixture in
            try await put(fixture, ["id": .s("x"), "name": .s("X")])
            let context = ObjectContext(store: store)
            let error = try await #require(throws: StoreError.self) { _ = try await spot(context, "x") }
            #expect("\(error)".contains("Spot item of model version 0: the migration to 1 failed"))
            let fresh = ManagedObject(entity: Self.spot, context: context)
            fresh["id"] = "y"
            fresh["name"] = "Y"
            try await context.save()
            #expect(try await fixture.item("Spots", ["id": .s("y")])?["mv"] == .n(DynamoNumber(1)), "the attribute name is configurable")
        }
    }
}
