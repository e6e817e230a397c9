import DynamoAPI
import DynamoStore
import Testing

/// The interleaving behind `GraphConcurrencyTests`' "place p1 lists missing visit v0", made
/// deterministic: a context reads visit v0 at p0; meanwhile v0 is deleted and inserted again
/// at p1 (as a context under object trump does when the row it updates is gone). The new row
/// starts at version 1 again, so the stale context's version condition still holds: its
/// delete or move must also find the visit's place as read, or the place that lists the new
/// visit is left pointing at a row that is gone (or at a visit placed elsewhere).
@Suite struct ReinsertedRowTests {
    static let policies: [MergePolicy] = [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]

    /// Places p0…p2 and visit v0 at p0.
    private func seed(_ fixture: StoreFixture) async throws {
        try await fixture.seedGraph(places: ["p0", "p1", "p2"], visits: ["v0": "p0"])
    }

    /// Deletes v0 in one context, then inserts a new v0 at p1 in another.
    private func reinsertAtP1(_ fixture: StoreFixture) async throws {
        let deleter = fixture.context()
        deleter.delete(try await fixture.load(deleter, "Visit", "v0"))
        try await deleter.save()
        let inserter = fixture.context()
        let visit = ManagedObject(entity: GraphModel.visit, context: inserter)
        visit["id"] = "v0"
        visit["place"] = try await fixture.load(inserter, "Place", "p1")
        try await inserter.save()
        #expect(try await fixture.item("Visits", ["id": .s("v0")])?["version"] == .n(DynamoNumber(1)))
    }

    private func save(_ context: ObjectContext) async throws {
        do { try await context.save() } catch is MergeConflictError where context.mergePolicy == .error {}
    }

    @Test(arguments: policies)
    func aStaleDeleteOfAReinsertedVisitLeavesNoDanglingPlace(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture)
            let context = fixture.context(policy)
            let visit = try await fixture.load(context, "Visit", "v0")
            try await reinsertAtP1(fixture)
            context.delete(visit)
            try await save(context)
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }

    @Test(arguments: policies)
    func aStaleMoveOfAReinsertedVisitLeavesNoPlaceListingItWrongly(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture)
            let context = fixture.context(policy)
            let visit = try await fixture.load(context, "Visit", "v0")
            let target = try await fixture.load(context, "Place", "p2")
            try await reinsertAtP1(fixture)
            visit["place"] = target
            try await save(context)
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }
}
