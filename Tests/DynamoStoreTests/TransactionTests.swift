import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

@Suite struct TransactionTests {
    @Test func aSaveThatFitsOneTransactionIsAllOrNothing() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            let visit = Checkin(context: context)
            visit.location = home
            // Every attempt the store makes (3) is cancelled with TransactionConflict.
            try await fixture.injectTransactionConflicts(table: "Checkins", count: 3)
            let error = try await #require(throws: DynamoError.self) { try await context.save() }
            #expect(error.code == .transactionCanceled)
            #expect(error.cancellationReasons?.map(\.code).contains("TransactionConflict") == true)
            #expect(fixture.transport.count("TransactWriteItems") == 3)
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)]) == nil)
            #expect(try await fixture.item("Checkins", ["id": .s(visit.id.uuidString)]) == nil)
            #expect(context.insertedObjects == [home, visit])

            try await context.save()
            #expect(try await fixture.item("Checkins", ["id": .s(visit.id.uuidString)])?["location"] == .s(home.id.uuidString))
        }
    }

    @Test func transactionConflictsAreRetried() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            try await fixture.injectTransactionConflicts(table: "Locations", count: 2)
            try await context.save()
            // A one-object save is a PutItem; its TransactionConflictException is retried too.
            #expect(fixture.transport.count("PutItem") == 3)
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)]) != nil)
        }
    }

    @Test func aSplitSaveThatStopsSaysWhatWasStored() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            context.undoManager = nil
            let tags = (0..<100).map { number in
                let tag = context.newTag(Int64(number), "t")
                return tag
            }
            let home = context.newLocation("Home")
            try await fixture.injectTransactionConflicts(table: "Locations", count: 3)
            let error = try await #require(throws: PartialSaveError.self) { try await context.save() }
            #expect(Set(error.stored) == Set(tags.map(\.objectID)))
            #expect(error.notStored == [home.objectID])
            // The last part is one object, a PutItem: its conflict is TransactionConflictException.
            #expect((error.underlying as? DynamoError)?.code == .transactionConflict)
            #expect(context.insertedObjects == [home])
            let count = try await fixture.client.scan(ScanInput(tableName: "Tag", select: .count)).count
            #expect(count == 100)

            try await context.save()
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)]) != nil)
        }
    }

    @Test func bothSidesOfARelationshipStayInOneTransactionWhenASaveIsSplit() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            context.undoManager = nil
            let tags = (0..<99).map { context.newTag(Int64($0)) }
            let home = context.newLocation("Home")
            let visit = Checkin(context: context)
            visit.location = home
            // 99 tags + 2 linked objects: the pair goes together into the second transaction.
            try await fixture.injectTransactionConflicts(table: "Checkins", count: 3)
            let error = try await #require(throws: PartialSaveError.self) { try await context.save() }
            #expect(Set(error.stored) == Set(tags.map(\.objectID)))
            #expect(Set(error.notStored) == [home.objectID, visit.objectID])
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)]) == nil)
            try await context.save()
            #expect(try await fixture.item("Locations", ["id": .s(home.id.uuidString)])?["checkins"] == .ss([visit.id.uuidString]))
        }
    }
}
