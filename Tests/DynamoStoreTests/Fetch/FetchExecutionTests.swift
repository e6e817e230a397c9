import DynamoAPI
import DynamoStore
import Foundation
import Testing

@Suite struct FetchExecutionTests {
    private func ats(_ objects: [ManagedObject]) -> [Int] {
        objects.map { object in
            guard case .n(let at)? = object.objectID.key["at"], let value = Int(at.description) else { return -1 }
            return value
        }
    }

    /// 60 visits of u0, at 0…59; every even one flagged.
    static let visits = (0..<60).map { visitItem("u0", $0, city: "Oslo", score: Double($0 % 7), flag: $0 % 2 == 0) }

    @Test func fetchLimitReadsPagesUntilReachedAndNoFurther() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            var request = try fixture.request("Visit", "user == 'u0' AND flag == YES")
            request.fetchLimit = 20
            request.fetchBatchSize = 7
            let context = ObjectContext(store: fixture.store)
            let first = try await context.fetchPage(request)
            #expect(ats(first.objects) == Array(stride(from: 0, to: 40, by: 2)))
            // Pages of 7 hold 4, 3, 4, 3, 4, 3 flagged visits: the sixth reaches 20.
            #expect(fixture.takeCounts() == ["Query": 6])
            let cursor = try #require(first.cursor)
            #expect(try FetchCursor(token: cursor.token) == cursor)
            request.cursor = try FetchCursor(token: cursor.token)
            let second = try await context.fetchPage(request)
            #expect(ats(second.objects) == Array(stride(from: 40, to: 60, by: 2)))
            #expect(second.cursor == nil)
        }
    }

    @Test func withoutAFilterTheLimitIsThePageLimit() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            var request = try fixture.request("Visit", "user == 'u0' AND at >= 10", sortBy: [.descending("at")])
            request.fetchLimit = 5
            let page = try await ObjectContext(store: fixture.store).fetchPage(request)
            #expect(ats(page.objects) == [59, 58, 57, 56, 55])
            #expect(page.cursor != nil)
            #expect(fixture.takeCounts() == ["Query": 1])
        }
    }

    @Test func cursorsWalkAScanExactlyOnce() async throws {
        try await withFetchStore { fixture in
            let items = (0..<4).flatMap { u in (0..<25).map { visitItem("u\(u)", $0, flag: $0 % 3 == 0) } }
            try await fixture.put(items, into: "Visits")
            var request = try fixture.request("Visit", "flag == NO")
            request.fetchLimit = 9
            let context = ObjectContext(store: fixture.store)
            var seen: [ObjectID] = []
            var pages = 0
            repeat {
                let page = try await context.fetchPage(request)
                seen += page.objects.map(\.objectID)
                request.cursor = page.cursor
                pages += 1
            } while request.cursor != nil && pages < 50
            #expect(seen.count == items.filter { $0["flag"] == .bool(false) }.count)
            #expect(Set(seen).count == seen.count)
            #expect(pages == 8) // 64 results, 9 per page
        }
    }

    @Test func cursorsThatCannotContinueAreRefused() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            var request = try fixture.request("Visit", "user == 'u0'")
            request.fetchLimit = 2
            let cursor = try #require(try await ObjectContext(store: fixture.store).fetchPage(request).cursor)
            var sorted = try fixture.request("Visit", "user == 'u0'", sortBy: [.ascending("city")])
            sorted.cursor = cursor
            await #expect(
                throws: FetchPredicateError(
                    "a cursor continues DynamoDB's order; this request sorts in memory, so it has no position to continue from")
            ) {
                try await ObjectContext(store: fixture.store).fetch(sorted)
            }
            var other = try fixture.request("Visit", "city == 'Oslo' AND score > 1")
            other.cursor = cursor
            await #expect(throws: FetchPredicateError("the cursor is from a read of Visits, not of this request's Visits index byCity")) {
                try await ObjectContext(store: fixture.store).fetch(other)
            }
            #expect(throws: FetchPredicateError("not a fetch cursor token")) { try FetchCursor(token: "bm9wZQ==") }
        }
    }

    @Test func countsAreSummedOverPages() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let context = ObjectContext(store: fixture.store)
            var query = try fixture.request("Visit", "user == 'u0' AND at < 45")
            query.fetchBatchSize = 10
            #expect(try await context.count(for: query) == 45)
            #expect(fixture.takeCounts() == ["Query": 5])
            var filtered = try fixture.request("Visit", "flag == YES")
            filtered.fetchBatchSize = 25
            #expect(try await context.count(for: filtered) == 30)
            #expect(fixture.takeCounts() == ["Scan": 3])
            var unbatched = try fixture.request("Visit", "user == 'u0'")
            unbatched.fetchBatchSize = 0 // Core Data's "no batching": 1 MB pages, not Limit=0
            #expect(try await context.count(for: unbatched) == 60)
            #expect(try await context.fetch(unbatched).count == 60)
            #expect(fixture.takeCounts() == ["Query": 2])
            var limited = try fixture.request("Visit", "user == 'u0'")
            limited.fetchLimit = 12
            limited.fetchBatchSize = 5
            #expect(try await context.count(for: limited) == 12)
            #expect(fixture.takeCounts() == ["Query": 3])
        }
    }

    @Test func countsAndFetchesCrossOneMegabytePages() async throws {
        try await withFetchStore { fixture in
            let padding = String(repeating: "x", count: 1_000)
            let items = (0..<2_500).map { visitItem("u\($0 % 5)", $0, note: padding) }
            try await fixture.put(items, into: "Visits")
            let context = ObjectContext(store: fixture.store)
            let all = try fixture.request("Visit")
            #expect(try await context.count(for: all) == 2_500)
            let scans = fixture.takeCounts()["Scan"] ?? 0
            #expect(scans >= 3) // about 2.5 MB in pages of 1 MB
            #expect(try await context.fetchObjectIDs(all).count == 2_500)
            #expect(fixture.takeCounts() == ["Scan": scans])
        }
    }

    @Test func batchesAreReadLazily() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            var request = try fixture.request("Visit", "user == 'u0'")
            request.fetchBatchSize = 8
            request.fetchLimit = 30
            var sizes: [Int] = []
            var all: [Int] = []
            for try await batch in ObjectContext(store: fixture.store).fetchBatches(request) {
                sizes.append(batch.count)
                all += ats(batch)
                #expect(fixture.takeCounts() == ["Query": 1])
            }
            #expect(sizes == [8, 8, 8, 6])
            #expect(all == Array(0..<30))
        }
    }

    @Test func pendingChangesAreIncludedOrExcluded() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits.prefix(10).map { $0 }, into: "Visits")
            let context = ObjectContext(store: fixture.store)
            let entity = try #require(fixture.model.entity(named: "Visit"))
            let request = try fixture.request("Visit", "user == 'u0' AND flag == YES", sortBy: [.descending("at")])
            let stored = try await context.fetch(request)
            #expect(ats(stored) == [8, 6, 4, 2, 0])
            // Insert a matching visit, unflag 8, flag 7, delete 4: none of it saved.
            let inserted = ManagedObject(entity: entity, context: context)
            inserted["user"] = "u0"
            inserted["at"] = Int64(100)
            inserted["flag"] = true
            stored[0]["flag"] = false
            let seven = try #require(try await context.fetch(try fixture.request("Visit", "user == 'u0' AND at == 7")).first)
            seven["flag"] = true
            context.delete(stored[2])
            #expect(ats(try await context.fetch(request)) == [100, 7, 6, 2, 0])
            #expect(try await context.count(for: request) == 5)
            var limited = request
            limited.fetchLimit = 3
            #expect(ats(try await context.fetch(limited)) == [100, 7, 6])
            var storeOnly = request
            storeOnly.includesPendingChanges = false
            #expect(ats(try await context.fetch(storeOnly)) == [8, 6, 4, 2, 0])
            #expect(try await context.count(for: storeOnly) == 5)
            // Another context sees only what is stored.
            #expect(ats(try await ObjectContext(store: fixture.store).fetch(request)) == [8, 6, 4, 2, 0])
        }
    }

    @Test func resultForms() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(
                [
                    ["id": .s("p1"), "name": .s("Pier"), "rank": .n(DynamoNumber(3))],
                    ["id": .s("p2"), "name": .s("Park")],
                ], into: "Places")
            try await fixture.put(
                Self.visits.prefix(6).map { item in
                    var item = item
                    if case .n(let at)? = item["at"] { item["place"] = .s(at.description == "1" ? "p2" : "p1") }
                    return item
                }, into: "Visits")
            let context = ObjectContext(store: fixture.store)
            // Dictionaries of the properties asked for, relationships as identities.
            let dictionaries = try FetchRequest(
                "Visit", in: fixture.model, predicate: FetchPredicate("user == 'u0' AND at < 2"),
                propertiesToFetch: ["at", "score", "place"])
            let rows = try await context.fetchDictionaries(dictionaries)
            #expect(rows.count == 2)
            #expect(rows[0]["at"] as? Int64 == 0 && rows[0]["score"] as? Double == 0 && rows[0]["city"] == nil)
            #expect(rows[1]["place"] as? ObjectID == ObjectID(entityName: "Place", key: ["id": .s("p2")]))
            #expect(context.registeredObjects.isEmpty)
            // Objects are read whole even when the request names properties: an object's
            // snapshot is its row.
            let whole = try await context.fetch(dictionaries)
            #expect(whole.count == 2 && whole.allSatisfy { $0["city"] as? String == "Oslo" })
            context.reset()
            // Faults: only keys are read; the objects fire when touched.
            var faults = try fixture.request("Visit", "user == 'u0'")
            faults.returnsObjectsAsFaults = true
            let objects = try await context.fetch(faults)
            #expect(objects.count == 6 && objects.allSatisfy(\.isFault))
            // Prefetching reads the places of the fetched visits in one BatchGetItem.
            _ = fixture.takeCounts()
            let prefetching = try FetchRequest(
                "Visit", in: fixture.model, predicate: FetchPredicate("user == 'u0'"),
                prefetching: ["place"])
            let fresh = ObjectContext(store: fixture.store)
            let visits = try await fresh.fetch(prefetching)
            #expect(fixture.takeCounts() == ["Query": 1, "BatchGetItem": 1])
            let place = try #require(visits.first?["place"] as? ManagedObject)
            #expect(!place.isFault && place["name"] as? String == "Pier")
            #expect(fixture.takeCounts() == [:])
            #expect(fresh.registeredObjects.count == 8) // 6 visits, 2 places
        }
    }
}
