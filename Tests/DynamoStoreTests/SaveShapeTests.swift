import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

/// Saves send what the work needs: one conditional write for one object, deltas for to-many
/// relationships, one Put for a key deleted and inserted again.
@Suite struct SaveShapeTests {
    @Test func aSaveOfOneObjectIsOneConditionalWriteNotATransaction() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let tag = context.newTag(1, "a")
            try await context.save()
            tag.label = "b"
            try await context.save()
            context.delete(tag)
            try await context.save()
            #expect(fixture.transport.count("TransactWriteItems") == 0)
            #expect(fixture.transport.count("PutItem") == 1)
            #expect(fixture.transport.count("UpdateItem") == 1)
            #expect(fixture.transport.count("DeleteItem") == 1)
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(1))]) == nil)

            // A failed condition of a single write is still a merge conflict with both values.
            let home = context.newLocation("Home")
            try await context.save()
            let other = fixture.context()
            let theirs = try #require(try await other.existingObject(with: home.objectID, as: Location.self))
            theirs.name = "Theirs"
            try await other.save()
            home.name = "Ours"
            let error = await #expect(throws: MergeConflictError.self) { try await context.save() }
            #expect(error?.conflicts.first?.differences.map(\.property) == ["name"])
        }
    }

    @Test func deletingAndInsertingOneKeyInOneSaveIsOnePut() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let old = context.newTag(7, "old")
            try await context.save()
            context.delete(old)
            let new = context.newTag(7, "new")
            try await context.save()
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(7))]) == ["id": .n(DynamoNumber(7)), "label": .s("new")])
            #expect(context.registeredObjects.contains(new) && !context.registeredObjects.contains(old))
            #expect(!context.hasChanges)
            #expect(context.object(with: new.objectID) === new)
        }
    }

    /// The issue's case: both contexts read a location, one adds a check-in (and renames it),
    /// the other adds one (and renames it), conflicts on the version, and retries with a policy.
    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback])
    func twoContextsAddingToOneToManyKeepBothUnderEveryPolicy(policy: MergePolicy) async throws {
        try await withStore { fixture in
            let setup = fixture.context()
            let home = setup.newLocation("Home")
            try await setup.save()
            let first = fixture.context(), second = fixture.context()
            let mine = try #require(try await first.existingObject(with: home.objectID, as: Location.self))
            let yours = try #require(try await second.existingObject(with: home.objectID, as: Location.self))
            let a = Checkin(context: first)
            a.location = mine
            mine.name = "Mine"
            try await first.save()
            let b = Checkin(context: second)
            b.location = yours
            yours.name = "Yours"
            await #expect(throws: MergeConflictError.self) { try await second.save() }
            second.mergePolicy = policy
            try await second.save()
            let row = try #require(try await fixture.item("Locations", home.objectID.key))
            let expected = [a.id.uuidString, b.id.uuidString].sorted()
            #expect(row["checkins"] == .ss(expected))
            #expect(row["name"] == .s(policy == .mergeByPropertyObjectTrump || policy == .overwrite ? "Yours" : "Mine"))
            for checkin in [a, b] {
                #expect(try await fixture.item("Checkins", checkin.objectID.key)?["location"] == .s(home.id.uuidString))
            }
            #expect(yours.checkins.compactMap { $0.objectID.key["id"] }.sorted { "\($0)" < "\($1)" } == expected.map { .s($0) })
            #expect(!second.hasChanges)
        }
    }

    /// Adding to a set without changing anything else needs no version: both saves succeed,
    /// even with the default policy.
    @Test func additionsAloneNeverConflict() async throws {
        try await withStore { fixture in
            let setup = fixture.context()
            let home = setup.newLocation("Home")
            try await setup.save()
            let first = fixture.context(), second = fixture.context()
            let mine = try #require(try await first.existingObject(with: home.objectID, as: Location.self))
            let yours = try #require(try await second.existingObject(with: home.objectID, as: Location.self))
            Checkin(context: first).location = mine
            Checkin(context: second).location = yours
            try await first.save()
            try await second.save()
            guard case .ss(let stored)? = try await fixture.item("Locations", home.objectID.key)?["checkins"] else {
                Issue.record("no checkins stored"); return
            }
            #expect(stored.count == 2)
        }
    }
}
