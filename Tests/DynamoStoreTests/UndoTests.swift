import DynamoAPI
import DynamoClient
import Foundation
import DynamoStore
import Testing

@Suite struct UndoTests {
    @Test func eachEventUndoesAndRedoesAsAGroup() throws {
        let store = try DynamoStore(types: Models.types, client: .local(port: 1))
        let context = ObjectContext(store: store)
        let undo = try #require(context.undoManager)
        let home = context.newLocation("Home")
        undo.closeGroup()
        undo.group {
            home.name = "Work"
            home.latitude = 2
        }
        home.name = "Gym"
        undo.undo()
        #expect(home.name == "Work" && home.latitude == 2)
        undo.undo()
        #expect(home.name == "Home" && home.latitude == nil)
        undo.redo()
        #expect(home.name == "Work" && home.latitude == 2)
        undo.redo()
        #expect(home.name == "Gym")
        #expect(!undo.canRedo)
        undo.undo()
        home.name = "Park"
        #expect(!undo.canRedo, "a new change clears the redo stack")
    }

    @Test func undoRestoresBothSidesOfARelationshipAndInsertsAndDeletes() throws {
        let store = try DynamoStore(types: Models.types, client: .local(port: 1))
        let context = ObjectContext(store: store)
        let undo = try #require(context.undoManager)
        let home = Location(context: context)
        let work = Location(context: context)
        let visit = Checkin(context: context)
        visit.location = home
        undo.closeGroup()
        visit.location = work
        #expect(home.checkins.isEmpty && work.checkins == [visit])
        undo.undo()
        #expect(visit.location === home && home.checkins == [visit] && work.checkins.isEmpty)
        undo.redo()
        #expect(visit.location === work && work.checkins == [visit] && home.checkins.isEmpty)

        let extra = Checkin(context: context)
        undo.closeGroup()
        #expect(context.insertedObjects.contains(extra))
        undo.undo()
        #expect(!context.insertedObjects.contains(extra))
        undo.redo()
        #expect(context.insertedObjects.contains(extra))

        context.delete(home)
        #expect(home.isDeleted)
        undo.undo()
        #expect(!home.isDeleted)
    }

    @Test func undoWorksAcrossASave() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            try await context.save()
            home.name = "Work"
            try await context.save()
            context.undoManager?.undo()
            #expect(home.name == "Home")
            #expect(context.updatedObjects == [home])
            try await context.save()
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)])?["name"] == .s("Home"))
        }
    }
}
