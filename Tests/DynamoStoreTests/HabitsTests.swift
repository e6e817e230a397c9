import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

/// Core Data's habits that apps rely on.
@Suite struct HabitsTests {
    @Test func aFetchLimitOfZeroMeansNoLimit() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(FetchExecutionTests.visits, into: "Visits")
            var request = try fixture.request("Visit", "user == 'u0'")
            request.fetchLimit = 0
            #expect(request.fetchLimit == nil)
            let context = ObjectContext(store: fixture.store)
            #expect(try await context.fetch(request).count == 60)
            #expect(try await context.count(for: request) == 60)
        }
    }

    @Test func existingObjectOfAKeyThatNeverExistedIsNilWithoutADeletedNotice() async throws {
        try await withStore { fixture in
            let writer = fixture.context()
            let tag = writer.newTag(5)
            try await writer.save()
            _ = try await fixture.client.deleteItem(DeleteItemInput(tableName: "Tag", key: tag.objectID.key))

            let context = fixture.context()
            var notices = context.objectsDeletedInStore.makeAsyncIterator()
            let never = ObjectID(entityName: "Tag", key: ["id": .n(DynamoNumber(404))])
            #expect(try await context.existingObject(with: never) == nil)
            #expect(!context.registeredObjects.contains { $0.objectID == never })
            // A registered fault whose row is gone is still announced, and it is the first notice.
            try await context.load(context.object(with: tag.objectID))
            #expect(await notices.next() == tag.objectID)
        }
    }

    @Test func anEmptyKeyStringFailsValidationBeforeTheServer() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let owner = Owner(context: context)
            owner.id = ""
            owner.name = "Ann"
            let error = await #expect(throws: ValidationError.self) { try await context.save() }
            #expect(error?.issues.map(\.description) == ["Owner(id=).id: a key must not be empty"])
            #expect(fixture.transport.count("PutItem") + fixture.transport.count("TransactWriteItems") == 0)
        }
    }

    @Test func valuesDynamoDBCannotStoreFailValidationAtSaveInsteadOfTrapping() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let sample = Sample(context: context)
            sample.id = "bad"
            sample.double = .nan
            sample.float = .infinity
            sample.plain = 3
            let error = await #expect(throws: ValidationError.self) { try await context.save() }
            #expect(error?.issues.map(\.property) == ["double", "float"])
            #expect(error?.issues.allSatisfy { $0.message.contains("cannot be stored as a DynamoDB number") } == true)
            sample.double = 1e300
            sample.float = 1
            let again = await #expect(throws: ValidationError.self) { try await context.save() }
            #expect(again?.issues.map(\.property) == ["double"])
            sample.double = 2.5
            try await context.save()
            #expect(try await fixture.item("Sample", ["id": .s("bad")])?["double"] == .n(try DynamoNumber(parsing: "2.5")))
        }
    }

    @Test func aWrongTypedStoredValueIsALoadErrorNamingTheAttribute() async throws {
        try await withStore { fixture in
            _ = try await fixture.client.putItem(PutItemInput(tableName: "Sample", item: ["id": .s("w"), "small": .s("twelve")]))
            let context = fixture.context()
            let id = ObjectID(entityName: "Sample", key: ["id": .s("w")])
            await #expect(throws: StoreError.undecodableValue(#"Sample.small: {"S":"twelve"} is not a Int16"#)) {
                _ = try await context.existingObject(with: id)
            }
        }
    }

    @Test func aFaultIsLoadedWithLoadAndReadingItFirstIsAnErrorNamingLoad() async throws {
        try await withStore { fixture in
            let writer = fixture.context()
            let tag = writer.newTag(3, "three")
            try await writer.save()
            let context = fixture.context()
            let fault = context.object(with: tag.objectID)
            #expect(throws: StoreError.notLoaded(tag.objectID, property: "label")) { try fault.value(forKey: "label") }
            #expect(StoreError.notLoaded(tag.objectID, property: "label").description.contains("try await object.load()"))
            try await fault.load()
            #expect(try fault.value(forKey: "label") as? String == "three")
            await #expect(throws: StoreError.wrongContext(Tag().objectID)) { try await Tag().load() }
        }
    }

    @Test func anObjectArgumentIsResolvedToItsKeyWhenThePredicateIsBuilt() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            let predicate = try FetchPredicate("location == %@", home)
            let request = try FetchRequest<Checkin>(in: fixture.store.model, predicate: predicate)
            #expect(request.explain().expressionAttributeValues == [":v0": .s(home.id.uuidString)])
        }
    }
}

/// A class whose table name has a prefix that can be changed (as an app's configuration would).
final class Prefixed: ManagedObject {
    nonisolated(unsafe) static var prefix = "A-"
    override class var mapping: EntityMapping { EntityMapping(tableName: prefix + "Prefixed") }
    @Attribute var id: String
}

@Suite struct TablePrefixTests {
    @Test func aTablePrefixSetAfterFirstUseIsAnError() throws {
        let client = DynamoClient.local(port: 1)
        _ = try DynamoStore(types: [Prefixed.self], client: client)
        Prefixed.prefix = "B-"
        #expect(
            throws: ModelError(problems: [
                "Prefixed: its mapping now names table 'B-Prefixed', but its description was derived with 'A-Prefixed' when the class was first used; set table names (prefixes) before any use of the class"
            ])
        ) { try DynamoStore(types: [Prefixed.self], client: client) }
        Prefixed.prefix = "A-"
    }
}

@Suite struct TemporaryIDTests {
    @Test func unsavedObjectsHaveTemporaryIDsThatBecomePermanent() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let tag = context.newTag(1)
            #expect(tag.objectID.isTemporaryID)
            #expect(tag.objectID == ObjectID(entityName: "Tag", key: ["id": .n(DynamoNumber(1))]))
            try await context.save()
            #expect(!tag.objectID.isTemporaryID)

            let early = context.newTag(2)
            try context.obtainPermanentIDs(for: [early])
            #expect(!early.objectID.isTemporaryID)
            early.id = 3
            let error = await #expect(throws: ValidationError.self) { try await context.save() }
            #expect(error?.issues.map(\.property) == ["id"])
            early.id = 2
            try await context.save()
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(2))]) != nil)

            let owner = Owner(context: context)
            #expect(throws: ValidationError(issues: [.init(objectID: owner.objectID, property: "id", message: "a permanent ID needs a key value")])) {
                try context.obtainPermanentIDs(for: [owner])
            }
            #expect(owner.objectID.isTemporaryID)
        }
    }
}
