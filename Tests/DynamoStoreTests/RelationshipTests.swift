import DynamoAPI
import DynamoStore
import Foundation
import Testing

@Suite struct RelationshipTests {
    /// A location with two check-ins and a tag, saved.
    private func seed(_ fixture: StoreFixture) async throws -> (home: Location, checkins: [Checkin], tag: Tag) {
        let context = fixture.context()
        let home = context.newLocation("Home")
        let checkins = (0..<2).map { _ in Checkin(context: context) }
        for checkin in checkins { checkin.location = home }
        let tag = context.newTag(1, "t")
        home.tags = [tag]
        try await context.save()
        return (home, checkins, tag)
    }

    private func key(_ location: Location) -> Item { ["id": .s(location.id.uuidString)] }
    private func key(_ checkin: Checkin) -> Item { ["id": .s(checkin.id.uuidString)] }

    @Test func movingACheckinUpdatesThreeRowsEvenWhenTheOldOwnerIsAFault() async throws {
        try await withStore { fixture in
            let (home, checkins, _) = try await seed(fixture)
            let context = fixture.context()
            let work = context.newLocation("Work")
            let moved = try #require(try await context.existingObject(with: checkins[0].objectID) as? Checkin)
            let oldHome = try #require(moved.location)
            #expect(oldHome.isFault)
            moved.location = work
            #expect(work.checkins == [moved])
            fixture.transport.resetCounts()
            try await context.save()
            #expect(fixture.transport.count("TransactWriteItems") == 1)
            #expect(try await fixture.item("Checkins", key(checkins[0]))?["location"] == .s(work.id.uuidString))
            #expect(try await fixture.item("Locations", key(work))?["checkins"] == .ss([checkins[0].id.uuidString]))
            #expect(try await fixture.item("Locations", key(home))?["checkins"] == .ss([checkins[1].id.uuidString]))
            #expect(oldHome.checkins.map(\.objectID) == [checkins[1].objectID])
        }
    }

    @Test func cascadeDeletesTheCheckinsAndNullifiesTheTags() async throws {
        try await withStore { fixture in
            let (home, checkins, tag) = try await seed(fixture)
            let context = fixture.context()
            let location = try #require(try await context.existingObject(with: home.objectID))
            context.delete(location)
            try await context.save()
            #expect(try await fixture.item("Locations", key(home)) == nil)
            for checkin in checkins { #expect(try await fixture.item("Checkins", key(checkin)) == nil) }
            let tagItem = try #require(try await fixture.item("Tag", ["id": .n(DynamoNumber(1))]))
            #expect(tagItem["locations"] == nil)
            #expect(tagItem["label"] == .s(tag.label))
        }
    }

    @Test func nullifyRemovesADeletedCheckinFromItsLocation() async throws {
        try await withStore { fixture in
            let (home, checkins, _) = try await seed(fixture)
            let context = fixture.context()
            let checkin = try #require(try await context.existingObject(with: checkins[1].objectID))
            context.delete(checkin)
            try await context.save()
            #expect(try await fixture.item("Checkins", key(checkins[1])) == nil)
            let homeItem = try #require(try await fixture.item("Locations", key(home)))
            #expect(homeItem["checkins"] == .ss([checkins[0].id.uuidString]))
            // A DELETE from the set alone needs no version: other contexts' changes never conflict with it.
            #expect(homeItem["version"] == .n(DynamoNumber(1)))
        }
    }

    @Test func denyRefusesTheDeleteAndNoActionLeavesTheSet() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let owner = Owner(context: context)
            owner.id = "o"
            owner.name = "Ann"
            let pet = Pet(context: context)
            pet.id = "p"
            pet.owner = owner
            try await context.save()

            context.delete(owner)
            let error = try await #require(throws: ValidationError.self) { try await context.save() }
            #expect(error.issues.map(\.property) == ["pets"])
            context.rollback()
            #expect(!owner.isDeleted)

            context.delete(pet)
            try await context.save()
            #expect(try await fixture.item("Pet", ["id": .s("p")]) == nil)
            // No action: the owner still lists the deleted pet.
            #expect(try await fixture.item("Owner", ["id": .s("o")])?["pets"] == .ss(["p"]))
        }
    }

    @Test func manyToManyKeepsBothSets() async throws {
        try await withStore { fixture in
            let (home, _, tag) = try await seed(fixture)
            let context = fixture.context()
            let other = context.newTag(2, "u")
            let location = try #require(try await context.existingObject(with: home.objectID) as? Location)
            location.tags.insert(other)
            try await context.save()
            #expect(try await fixture.item("Locations", key(home))?["tags"] == .ns([DynamoNumber(1), DynamoNumber(2)]))
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(2))])?["locations"] == .ss([home.id.uuidString]))
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(1))])?["locations"] == .ss([home.id.uuidString]))
            _ = tag
        }
    }

    @Test func addingAFaultToASetMovesItAwayFromItsUnloadedOwner() async throws {
        try await withStore { fixture in
            let (home, checkins, _) = try await seed(fixture)
            let context = fixture.context()
            let work = context.newLocation("Work")
            let visit = context.object(with: checkins[0].objectID) as! Checkin
            #expect(visit.isFault)
            work.checkins.insert(visit)
            try await context.save()
            #expect(try await fixture.item("Checkins", key(checkins[0]))?["location"] == .s(work.id.uuidString))
            #expect(try await fixture.item("Locations", key(home))?["checkins"] == .ss([checkins[1].id.uuidString]))
            #expect(try await fixture.item("Locations", key(work))?["checkins"] == .ss([checkins[0].id.uuidString]))
        }
    }
}
