import DynamoAPI
import DynamoStore
import Foundation
import Testing

/// Two contexts race on one Location: the first saves name "A" and rating 1; the second, which
/// read the row before, changes name to "B" and latitude to 9, then saves.
@Suite struct MergePolicyTests {
    struct Outcome: Sendable, CustomStringConvertible {
        let policy: MergePolicy
        let name: String
        let latitude: Double?
        let rating: Decimal?
        let version: Int64
        var description: String { "\(policy)" }
    }

    static let outcomes: [Outcome] = [
        Outcome(policy: .mergeByPropertyStoreTrump, name: "A", latitude: 9, rating: 1, version: 3),
        Outcome(policy: .mergeByPropertyObjectTrump, name: "B", latitude: 9, rating: 1, version: 3),
        Outcome(policy: .overwrite, name: "B", latitude: 9, rating: nil, version: 3),
        Outcome(policy: .rollback, name: "A", latitude: nil, rating: 1, version: 2),
    ]

    /// Saves a location, loads it in a second context, and lets the first context change it.
    private func race(_ fixture: StoreFixture, policy: MergePolicy) async throws -> (Location, ObjectContext) {
        let first = fixture.context()
        let location = first.newLocation("start")
        try await first.save()
        let second = fixture.context(policy)
        let theirs = try #require(try await second.existingObject(with: location.objectID) as? Location)
        location.name = "A"
        location.rating = 1
        try await first.save()
        theirs.name = "B"
        theirs.latitude = 9
        return (theirs, second)
    }

    @Test(arguments: outcomes) func policyResolvesTheConflict(_ expected: Outcome) async throws {
        try await withStore { fixture in
            let (location, context) = try await race(fixture, policy: expected.policy)
            try await context.save()
            let item = try #require(try await fixture.item("Locations", ["id": .s(location.id.uuidString)]))
            #expect(item["name"] == .s(expected.name))
            #expect(item["latitude"] == (expected.latitude.map { .n(try! DynamoNumber(parsing: "\($0)")) }))
            #expect(item["rating"] == expected.rating.map { .n(try! DynamoNumber(parsing: "\($0)")) })
            #expect(item["version"] == .n(DynamoNumber(Int(expected.version))))
            #expect(location.name == expected.name && location.version == expected.version)
            #expect(!context.hasChanges)
        }
    }

    @Test func errorPolicyThrowsEveryConflictAndWritesNothing() async throws {
        try await withStore { fixture in
            let (location, context) = try await race(fixture, policy: .error)
            let error = try await #require(throws: MergeConflictError.self) { try await context.save() }
            let conflict = try #require(error.conflicts.first)
            #expect(error.conflicts.count == 1)
            #expect(conflict.objectID == location.objectID)
            #expect(conflict.objectVersion == 1 && conflict.storeVersion == 2 && conflict.existsInStore)
            #expect(Set(conflict.differences.map(\.property)) == ["name", "latitude", "rating"])
            #expect(conflict.differences.first { $0.property == "name" }?.storeValue == .s("A"))
            #expect(try await fixture.item("Locations", ["id": .s(location.id.uuidString)])?["name"] == .s("A"))
            #expect(context.updatedObjects == [location])
        }
    }

    /// Saves a location, loads it in a second context, then deletes it through the first.
    private func deleteUnder(_ fixture: StoreFixture, policy: MergePolicy) async throws -> (Location, ObjectContext) {
        let first = fixture.context()
        let location = first.newLocation("kept")
        try await first.save()
        let second = fixture.context(policy)
        let theirs = try #require(try await second.existingObject(with: location.objectID) as? Location)
        first.delete(location)
        try await first.save()
        return (theirs, second)
    }

    @Test func rowDeletedUnderAnUpdateIsAConflictOrANotification() async throws {
        try await withStore { fixture in
            let (theirs, second) = try await deleteUnder(fixture, policy: .error)
            theirs.name = "changed"
            let error = try await #require(throws: MergeConflictError.self) { try await second.save() }
            #expect(error.conflicts.map(\.existsInStore) == [false])

            second.mergePolicy = .mergeByPropertyStoreTrump
            var notices = second.objectsDeletedInStore.makeAsyncIterator()
            try await second.save()
            #expect(await notices.next() == theirs.objectID)
            #expect(try await fixture.item("Locations", ["id": .s(theirs.id.uuidString)]) == nil)
            #expect(!second.hasChanges)
        }
    }

    @Test func objectTrumpRecreatesARowDeletedUnderIt() async throws {
        try await withStore { fixture in
            let (theirs, second) = try await deleteUnder(fixture, policy: .mergeByPropertyObjectTrump)
            theirs.latitude = 3
            try await second.save()
            let item = try #require(try await fixture.item("Locations", ["id": .s(theirs.id.uuidString)]))
            #expect(item["name"] == .s("kept") && item["latitude"] == .n(DynamoNumber(3)))
        }
    }
}
