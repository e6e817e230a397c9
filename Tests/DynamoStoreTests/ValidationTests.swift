import DynamoAPI
import DynamoClient
import Foundation
import DynamoStore
import Testing

@Suite struct ValidationTests {
    @Test func everyProblemOfEveryObjectIsReportedAndNothingIsWritten() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let orphan = Checkin(context: context) // location is required (minCount 1)
            let nameless = Location() // name is required
            context.insert(nameless)
            let owner = Owner(context: context)
            owner.id = "o"
            owner.name = "  " // custom rule: not blank
            for number in 0..<3 { // maxCount 2
                let pet = Pet(context: context)
                pet.id = "p\(number)"
                pet.owner = owner
            }
            let error = try await #require(throws: ValidationError.self) { try await context.save() }
            let found = Set(error.issues.map { "\($0.objectID.entityName).\($0.property ?? "")" })
            #expect(found == ["Checkin.location", "Location.name", "Owner.name", "Owner.pets"])
            #expect(error.issues.first { $0.objectID == orphan.objectID }?.message == "a destination is required")
            #expect(error.issues.first { $0.property == "pets" }?.message == "at most 2 destination(s) allowed; has 3")
            #expect(fixture.transport.count("TransactWriteItems") == 0)
            #expect(context.insertedObjects.count == 6)

            orphan.location = nameless
            nameless.name = "Somewhere"
            owner.name = "Ann"
            owner.pets.removeFirst()
            try await context.save()
            #expect(fixture.transport.count("TransactWriteItems") == 1)
        }
    }

    @Test func changingTheKeyOfAStoredObjectIsRefused() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let tag = context.newTag(1, "a")
            try await context.save()
            tag.id = 2
            let error = try await #require(throws: ValidationError.self) { try await context.save() }
            #expect(error.issues.map(\.property) == ["id"])
        }
    }

    @Test func twoNewObjectsWithOneKeyAreRefused() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            context.newTag(3, "a")
            context.newTag(3, "b")
            let error = try await #require(throws: ValidationError.self) { try await context.save() }
            #expect(error.issues.map(\.message) == ["two inserted objects have this key"])
        }
    }

    @Test func aDetachedDestinationIsInsertedWithItsSource() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            let visit = Checkin()
            home.checkins.insert(visit)
            #expect(context.insertedObjects == [home, visit])
            try await context.save()
            #expect(try await fixture.item("Checkins", ["id": .s(visit.id.uuidString)])?["location"] == .s(home.id.uuidString))
        }
    }

    @Test func valuesOutsideTheirRangeAreRefused() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let pet = Pet(context: context)
            pet.id = "p"
            pet.age = 31
            pet.nickname = ""
            let error = try await #require(throws: ValidationError.self) { try await context.save() }
            #expect(
                error.issues.map(\.description) == [
                    "Pet(id=p).age: value must be between 0 and 30; is 31",
                    "Pet(id=p).nickname: length must be between 1 and 12; is 0",
                ])
            pet.age = 30
            pet.nickname = nil
            try await context.save()
        }
    }
}
