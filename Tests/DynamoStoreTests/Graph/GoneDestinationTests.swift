import DynamoAPI
import DynamoStore
import Testing

/// A to-many link added to a destination that writes nothing in the save: the context found
/// the destination's row gone while saving (loading the fault it had linked), so the
/// destination has no action of its own to guard the `ADD`. Without a `ConditionCheck` of the
/// destination's row the set would list a row that is gone.
@Suite struct GoneDestinationTests {
    static let policies: [MergePolicy] = [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]

    /// Places p0 and p1, label l0, and visit v0 at p0.
    private func seed(_ fixture: StoreFixture) async throws {
        try await fixture.seedGraph(places: ["p0", "p1"], labels: ["l0"], visits: ["v0": "p0"])
    }

    /// Deletes a row in another context.
    private func deleteInAnotherContext(_ fixture: StoreFixture, _ entity: String, _ key: String) async throws {
        let other = fixture.context()
        other.delete(try await fixture.load(other, entity, key))
        try await other.save()
    }

    private func save(_ context: ObjectContext) async throws {
        do { try await context.save() } catch is MergeConflictError where context.mergePolicy == .error {}
    }

    /// What p1 adds: visit v0 (one-to-many, the inverse a to-one) or label l0 (many-to-many).
    enum Destination: String, CaseIterable, Sendable {
        case visit, label
        var entity: String { self == .visit ? "Visit" : "Label" }
        var key: String { self == .visit ? "v0" : "l0" }
        var relationship: String { self == .visit ? "visits" : "labels" }
    }

    /// p1 adds the destination while it is a fault; another context deletes the destination
    /// before the save, which finds it gone when it loads the fault. p1's `ADD` must not store
    /// it in p1's set.
    @Test(arguments: policies, Destination.allCases)
    func addingADestinationFoundGoneLeavesNoPlaceListingIt(policy: MergePolicy, destination: Destination) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture)
            let context = fixture.context(policy)
            let place = try await fixture.load(context, "Place", "p1")
            place[destination.relationship] = Set([context.object(with: GraphModel.id(destination.entity, destination.key))])
            try await deleteInAnotherContext(fixture, destination.entity, destination.key)
            try await save(context)
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
            #expect(try await fixture.item("Places", ["id": .s("p1")])?[destination.relationship] == nil)
        }
    }
}
