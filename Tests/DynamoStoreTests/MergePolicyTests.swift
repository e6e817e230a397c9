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

    /// A check-in moved to `to` in one context while another moved it to L3; under store trump
    /// the move is dropped, and so is its inverse on `to` (which did not conflict), so every
    /// row agrees with the store's "at L3".
    @Test func storeTrumpDropsTheInverseOfADroppedRelationshipChange() async throws {
        try await withStore { fixture in
            let setup = fixture.context()
            let (l1, l2, l3) = (setup.newLocation("L1"), setup.newLocation("L2"), setup.newLocation("L3"))
            let checkin = Checkin(context: setup)
            checkin.location = l1
            try await setup.save()

            let ours = fixture.context(.mergeByPropertyStoreTrump)
            let mine = try #require(try await ours.existingObject(with: checkin.objectID) as? Checkin)
            let myL1 = try #require(try await ours.existingObject(with: l1.objectID) as? Location)
            let myL2 = try #require(try await ours.existingObject(with: l2.objectID) as? Location)
            checkin.location = l3
            try await setup.save()

            mine.location = myL2
            #expect(myL2.checkins == [mine] && myL1.checkins.isEmpty)
            try await ours.save()

            func row(_ table: String, _ id: UUID) async throws -> Item {
                try #require(try await fixture.item(table, ["id": .s(id.uuidString)]))
            }
            #expect(try await row("Checkins", checkin.id)["location"] == .s(l3.id.uuidString))
            #expect(try await row("Locations", l3.id)["checkins"] == .ss([checkin.id.uuidString]))
            #expect(try await row("Locations", l2.id)["checkins"] == nil)
            #expect(try await row("Locations", l1.id)["checkins"] == nil)
            #expect(try await row("Locations", l2.id)["version"] == .n(DynamoNumber(1)))
            #expect(mine.location?.objectID == l3.objectID && myL2.checkins.isEmpty && !ours.hasChanges)
        }
    }

    /// Many-to-many: one context replaces T1 by T4 in a location's tags while another adds
    /// T3. To-many changes merge as deltas under every policy: the location ends with T2, T3
    /// and T4, T1 loses it and T4 gets it, both sides agreeing.
    @Test func aManyToManyChangeMergesWithTheStoresAsADelta() async throws {
        try await withStore { fixture in
            let setup = fixture.context()
            let location = setup.newLocation("L")
            let tags = (1...4).map { number in
                let tag = Tag(context: setup)
                tag.id = Int64(number)
                tag.label = "T\(number)"
                return tag
            }
            location.tags = [tags[0], tags[1]]
            try await setup.save()

            let ours = fixture.context(.mergeByPropertyStoreTrump)
            let mine = try #require(try await ours.existingObject(with: location.objectID) as? Location)
            var myTags: [Tag] = []
            for tag in tags { myTags.append(try #require(try await ours.existingObject(with: tag.objectID) as? Tag)) }
            location.tags.insert(tags[2])
            try await setup.save()

            mine.tags = [myTags[1], myTags[3]]
            #expect(myTags[0].locations.isEmpty && myTags[3].locations == [mine])
            try await ours.save()

            func tagRow(_ id: Int) async throws -> Item? { try await fixture.item("Tag", ["id": .n(DynamoNumber(id))]) }
            let locationRow = try #require(try await fixture.item("Locations", ["id": .s(location.id.uuidString)]))
            #expect(locationRow["tags"] == .ns([DynamoNumber(2), DynamoNumber(3), DynamoNumber(4)]))
            for id in 2...4 { #expect(try await tagRow(id)?["locations"] == .ss([location.id.uuidString]), "T\(id)") }
            #expect(try await tagRow(1)?["locations"] == nil)
            #expect(Set(mine.tags.map(\.objectID)) == Set(tags[1...].map(\.objectID)))
            #expect(myTags[0].locations.isEmpty && myTags[3].locations == [mine])
            #expect(!ours.hasChanges)
        }
    }
}
