import DynamoAPI
import DynamoStore
import Testing

@Suite struct FetchObservationTests {
    @Test func observedResultsFollowSavesOfAnyContext() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(
                [visitItem("u0", 1, flag: true), visitItem("u0", 2, flag: true), visitItem("u1", 1, flag: true)],
                into: "Visits")
            let observer = ObjectContext(store: fixture.store)
            let request = try fixture.request("Visit", "user == 'u0' AND flag == YES", sortBy: [.descending("at")])
            var updates = observer.observe(request).makeAsyncIterator()
            let ats: (FetchResultsUpdate<ManagedObject>) -> [Int64] = { update in update.objects.compactMap { $0["at"] as? Int64 } }

            let first = try #require(try await updates.next())
            #expect(ats(first) == [2, 1] && first.inserted.count == 2 && first.removed.isEmpty)

            let writer = ObjectContext(store: fixture.store)
            let entity = try #require(fixture.model.entity(named: "Visit"))
            let visit = ManagedObject(entity: entity, context: writer)
            visit["user"] = "u0"
            visit["at"] = Int64(3)
            visit["flag"] = true
            try await writer.save()
            let inserted = try #require(try await updates.next())
            #expect(ats(inserted) == [3, 2, 1] && inserted.inserted == [visit.objectID] && inserted.removed.isEmpty)

            // A save of another entity, and one that leaves the results alone, yield nothing:
            // the next value is the change after them.
            let place = ManagedObject(entity: try #require(fixture.model.entity(named: "Place")), context: writer)
            place["id"] = "p1"
            place["name"] = "Pier"
            try await writer.save()
            let other = try #require(try await writer.fetch(try fixture.request("Visit", "user == 'u1'")).first)
            other["flag"] = false
            try await writer.save()
            visit["note"] = "hello"
            try await writer.save()
            let updated = try #require(try await updates.next())
            #expect(ats(updated) == [3, 2, 1] && updated.updated == [visit.objectID] && updated.inserted.isEmpty)

            visit["flag"] = false
            try await writer.save()
            let removed = try #require(try await updates.next())
            #expect(ats(removed) == [2, 1] && removed.removed == [visit.objectID])

            // The observing context's own saves count too.
            let one = try #require(try await observer.fetch(try fixture.request("Visit", "user == 'u0' AND at == 1")).first)
            observer.delete(one)
            try await observer.save()
            let deleted = try #require(try await updates.next())
            #expect(ats(deleted) == [2] && deleted.removed == [one.objectID])
        }
    }
}
