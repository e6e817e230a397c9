import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

@Suite struct ContextMergeTests {
    @Test func childSavePushesIntoTheParentWithoutIO() async throws {
        try await withStore { fixture in
            let main = fixture.context()
            let home = main.newLocation("Home")
            try await main.save()
            fixture.transport.resetCounts()

            let child = ObjectContext(parent: main)
            let mine = try #require(child.object(with: home.objectID) as? Location)
            try await child.load(mine)
            #expect(fixture.transport.count("GetItem") == 0, "the parent's loaded object supplies the values")
            mine.name = "Edited in child"
            let visit = Checkin(context: child)
            visit.location = mine
            try await child.save()
            #expect(fixture.transport.count("TransactWriteItems") == 0)
            #expect(!child.hasChanges)
            #expect(home.name == "Edited in child")
            #expect(main.updatedObjects == [home])
            let pushed = try #require(main.insertedObjects.first as? Checkin)
            #expect(main.insertedObjects.count == 1 && pushed.id == visit.id && pushed.location === home)
            #expect(home.checkins == [pushed])

            try await main.save()
            #expect(fixture.transport.count("TransactWriteItems") == 1)
            let stored = try #require(try await fixture.item("Locations", ["id": .s(home.id.uuidString)]))
            #expect(stored["name"] == .s("Edited in child") && stored["checkins"] == .ss([visit.id.uuidString]))
        }
    }

    @Test func backgroundSaveIsMergedIntoTheMainContext() async throws {
        try await withStore { fixture in try await Self.mergeIntoMainActorContext(fixture) }
    }

    /// The main context lives on the main actor; the background context in a detached task;
    /// only ObjectIDs and StoreChanges cross between them.
    @MainActor private static func mergeIntoMainActorContext(_ fixture: StoreFixture) async throws {
        do {
            let store = fixture.store
            let main = ObjectContext(store: store)
            let home = main.newLocation("Home")
            try await main.save()
            let homeID = home.objectID
            var changes = store.changes().makeAsyncIterator()

            home.latitude = 1 // an unsaved change the merge must keep
            let newID = try await Task.detached {
                let background = ObjectContext(store: store)
                let location = try #require(try await background.existingObject(with: homeID) as? Location)
                location.name = "Renamed in background"
                let visit = Checkin(context: background)
                visit.location = location
                try await background.save()
                return visit.objectID
            }.value

            let received = try #require(await changes.next())
            #expect(received.updated == [homeID] && received.inserted == [newID])
            try await main.mergeChanges(from: received)
            #expect(home.name == "Renamed in background" && home.version == 2)
            #expect(home.latitude == 1 && main.updatedObjects == [home])
            #expect(home.checkins.map(\.objectID) == [newID])
            try await main.save()
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)])?["version"] == .n(DynamoNumber(3)))
        }
    }

    @Test func mergedDeletesLeaveTheContext() async throws {
        try await withStore { fixture in
            let main = fixture.context()
            let tag = main.newTag(5, "x")
            try await main.save()
            let other = fixture.context()
            var changes = fixture.store.changes().makeAsyncIterator()
            other.delete(try #require(try await other.existingObject(with: tag.objectID)))
            try await other.save()
            let received = try #require(await changes.next())
            try await main.mergeChanges(from: received)
            #expect(main.registeredObjects.isEmpty)
        }
    }

    @Test func aMergeTaskKeepsTheMainContextCurrent() async throws {
        try await withStore { fixture in try await Self.mergeContinuously(fixture) }
    }

    @MainActor private static func mergeContinuously(_ fixture: StoreFixture) async throws {
        let store = fixture.store
        let main = ObjectContext(store: store)
        let home = main.newLocation("Home")
        try await main.save()
        let homeID = home.objectID
        let (merged, mergedContinuation) = AsyncStream<StoreChanges>.makeStream()
        let changes = store.changes()
        let mergeTask = Task { try await main.mergeChanges(from: changes) { mergedContinuation.yield($0) } }
        defer { mergeTask.cancel() }
        var mergedChanges = merged.makeAsyncIterator()

        home.name = "Mine" // a save of the main context itself is not merged back
        try await main.save()
        try await Task.detached {
            let background = ObjectContext(store: store)
            let location = try #require(try await background.existingObject(with: homeID) as? Location)
            location.latitude = 7
            try await background.save()
        }.value
        let received = try #require(await mergedChanges.next())
        #expect(received.updated == [homeID])
        #expect(home.latitude == 7)
        #expect(home.name == "Mine")
        #expect(home.version == 3)
        #expect(!main.hasChanges)
    }

    @Test func customRulesRunForEveryObjectOfTheirEntity() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            context.addValidationRule(for: "Tag") { tag in
                if (tag["label"] as? String)?.isEmpty != false {
                    throw ValidationError(issues: [.init(objectID: tag.objectID, property: "label", message: "must not be empty")])
                }
            }
            context.newTag(1, "")
            context.newTag(2, "")
            context.newTag(3, "ok")
            let error = try await #require(throws: ValidationError.self) { try await context.save() }
            #expect(error.issues.count == 2 && error.issues.allSatisfy { $0.message == "must not be empty" })
        }
    }

    @Test func aChildsDeleteReachesTheStoreThroughItsParent() async throws {
        try await withStore { fixture in
            let main = fixture.context()
            let home = main.newLocation("Home")
            let visits = (0..<2).map { _ in Checkin(context: main) }
            for visit in visits { visit.location = home }
            try await main.save()

            let child = ObjectContext(parent: main)
            child.delete(child.object(with: visits[0].objectID))
            try await child.save()
            #expect(main.deletedObjects == [visits[0]])
            #expect(home.checkins == [visits[1]])
            #expect(fixture.transport.count("TransactWriteItems") == 1)
            try await main.save()
            #expect(try await fixture.item("Checkins", ["id": .s(visits[0].id.uuidString)]) == nil)
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)])?["checkins"] == .ss([visits[1].id.uuidString]))
        }
    }
}
