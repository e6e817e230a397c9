import DynamoAPI
import DynamoClient
import Foundation
import DynamoStore
import Testing

@Suite struct FaultTests {
    @Test func faultsFireWithOneGetItemOrBatchesOfAHundred() async throws {
        try await withStore { fixture in
            let writer = fixture.context()
            writer.undoManager = nil
            let home = writer.newLocation("Home")
            for _ in 0..<150 { Checkin(context: writer).location = home }
            try await writer.save()
            fixture.transport.resetCounts()

            let context = fixture.context()
            let location = try #require(context.object(with: home.objectID) as? Location)
            #expect(location.isFault)
            #expect(context.object(with: home.objectID) === location, "one object per identity")
            try await context.load(location)
            #expect(fixture.transport.count("GetItem") == 1)
            let checkins = location.checkins
            #expect(checkins.count == 150 && checkins.allSatisfy(\.isFault))
            try await context.load(checkins)
            #expect(fixture.transport.count("BatchGetItem") == 2)
            #expect(checkins.allSatisfy { !$0.isFault && $0.location === location })
            try await context.load(checkins)
            #expect(fixture.transport.count("BatchGetItem") == 2 && fixture.transport.count("GetItem") == 1)
        }
    }

    @Test func aFaultWhoseRowIsGoneNotifiesOrThrows() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let missing = ObjectID(entityName: "Tag", key: ["id": .n(.init(99))])
            var notices = context.objectsDeletedInStore.makeAsyncIterator()
            let tag = try #require(context.object(with: missing) as? Tag)
            try await context.load(tag)
            #expect(await notices.next() == missing)
            #expect(tag.label == "" && tag["label"] == nil)

            let strict = fixture.context()
            strict.deletedObjectHandling = .throwError
            await #expect(throws: StoreError.objectDeletedInStore(missing)) {
                try await strict.load(strict.object(with: missing))
            }
        }
    }

    @Test func refreshReadsTheRowAgainKeepingOrDroppingChanges() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            try await context.save()
            let other = fixture.context()
            let theirs = try #require(try await other.existingObject(with: home.objectID) as? Location)
            theirs.latitude = 4
            try await other.save()

            home.name = "Mine"
            try await context.refresh(home, mergeChanges: true)
            #expect(home.latitude == 4 && home.name == "Mine" && home.version == 2)
            try await context.refresh(home, mergeChanges: false)
            #expect(home.name == "Home" && !context.hasChanges)

            let again = try #require(try await other.existingObject(with: home.objectID, as: Location.self))
            again.latitude = 5
            try await other.save()
            fixture.transport.resetCounts()
            try await context.refreshAllObjects()
            #expect(home.latitude == 5 && fixture.transport.count("GetItem") == 1)
        }
    }
}
