import DynamoAPI
import DynamoStore
import Testing

/// The interleavings `GraphConcurrencyTests` met now and then, made deterministic: one side of
/// a relationship is loaded before another context's commit and the other side after it, so
/// the stale side's snapshot already shows (or already lacks) the link this context changes.
/// Whatever the merge policy, both sides of every relationship must agree afterwards.
@Suite struct StaleInverseTests {
    static let policies: [MergePolicy] = [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]

    /// Places p0…p2, labels l0…l2, and visit v0 at p2; p0 carries label l2 when `labelled`.
    private func seed(_ fixture: StoreFixture, labelled: Bool) async throws {
        let setup = fixture.context()
        var places: [String: ManagedObject] = [:]
        for id in ["p0", "p1", "p2"] {
            let place = ManagedObject(entity: GraphModel.place, context: setup)
            place["id"] = id
            place["name"] = id
            places[id] = place
        }
        var labels: [String: ManagedObject] = [:]
        for id in ["l0", "l1", "l2"] {
            let label = ManagedObject(entity: GraphModel.label, context: setup)
            label["id"] = id
            labels[id] = label
        }
        let visit = ManagedObject(entity: GraphModel.visit, context: setup)
        visit["id"] = "v0"
        visit["place"] = places["p2"]
        if labelled, let place = places["p0"], let label = labels["l2"] { place["labels"] = Set([label]) }
        try await setup.save()
    }

    private func load(_ context: ObjectContext, _ entity: String, _ key: String) async throws -> ManagedObject {
        try #require(try await context.existingObject(with: GraphModel.id(entity, key)))
    }

    /// Sets `place`'s labels to contain `label` or not, in a fresh context, and saves.
    private func setLabel(_ fixture: StoreFixture, _ present: Bool) async throws {
        let other = fixture.context()
        let place = try await load(other, "Place", "p0"), label = try await load(other, "Label", "l2")
        var labels = place["labels"] as? Set<ManagedObject> ?? []
        if present { labels.insert(label) } else { labels.remove(label) }
        place["labels"] = labels
        try await other.save()
    }

    /// Saves `context`; under `.error` a `MergeConflictError` is an allowed outcome (nothing
    /// was written then). Returns whether the save went through.
    @discardableResult
    private func save(_ context: ObjectContext) async throws -> Bool {
        do {
            try await context.save()
            return true
        } catch is MergeConflictError where context.mergePolicy == .error {
            return false
        }
    }

    private func labels(_ fixture: StoreFixture) async throws -> (place: AttributeValue?, label: AttributeValue?) {
        let place = try await fixture.item("Places", ["id": .s("p0")]), label = try await fixture.item("Labels", ["id": .s("l2")])
        return (place?["labels"], label?["places"])
    }

    /// The label is read listing the place; another context unlabels; the place is read after
    /// that and labelled again. The label's snapshot already lists the place, so only a
    /// completed inverse gets it written there.
    @Test(arguments: policies)
    func labellingAgainstAStaleLabelWritesBothSides(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture, labelled: true)
            let context = fixture.context(policy)
            let label = try await load(context, "Label", "l2")
            try await setLabel(fixture, false)
            let place = try await load(context, "Place", "p0")
            place["labels"] = Set([label])
            #expect(try await save(context))
            #expect(try await labels(fixture) == (.ss(["l2"]), .ss(["p0"])))
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }

    /// The mirror image: the label is read without the place; another context labels; the
    /// place is read after that and unlabelled.
    @Test(arguments: policies)
    func unlabellingAgainstAStaleLabelWritesBothSides(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture, labelled: false)
            let context = fixture.context(policy)
            let label = try await load(context, "Label", "l2")
            try await setLabel(fixture, true)
            let place = try await load(context, "Place", "p0")
            #expect((place["labels"] as? Set<ManagedObject>) == [label])
            place["labels"] = Set<ManagedObject>()
            #expect(try await save(context))
            #expect(try await labels(fixture) == (nil, nil))
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }

    /// A visit is moved back to a place whose snapshot (read before another context moved the
    /// visit away) still lists it.
    @Test(arguments: policies)
    func movingToAStalePlaceListsTheVisitThere(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture, labelled: false)
            let context = fixture.context(policy)
            let stalePlace = try await load(context, "Place", "p2")
            let mover = fixture.context()
            try await load(mover, "Visit", "v0")["place"] = try await load(mover, "Place", "p1")
            try await mover.save()
            let visit = try await load(context, "Visit", "v0")
            visit["place"] = stalePlace
            #expect(try await save(context))
            #expect(try await fixture.item("Visits", ["id": .s("v0")])?["place"] == .s("p2"))
            #expect(try await fixture.item("Places", ["id": .s("p2")])?["visits"] == .ss(["v0"]))
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }

    /// A visit read at p2 (stale: another context moved it to p1) is added to p2's visits from
    /// the place's side, which was read fresh. The visit's snapshot already names p2, so the
    /// visit would not be written; its stored place must be checked instead.
    @Test(arguments: policies)
    func addingAStaleVisitFromThePlaceSideKeepsTheGraphWhole(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture, labelled: false)
            let context = fixture.context(policy)
            let visit = try await load(context, "Visit", "v0")
            let mover = fixture.context()
            try await load(mover, "Visit", "v0")["place"] = try await load(mover, "Place", "p1")
            try await mover.save()
            let place = try await load(context, "Place", "p2")
            #expect((place["visits"] as? Set<ManagedObject>) == [])
            place["visits"] = Set([visit])
            let saved = try await save(context)
            #expect(saved == (policy != .error))
            let stored = try await fixture.item("Visits", ["id": .s("v0")])?["place"]
            let expected: AttributeValue =
                switch policy {
                case .mergeByPropertyObjectTrump, .overwrite: .s("p2")
                default: .s("p1")
                }
            #expect(stored == expected)
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }

    /// A place is read without labels and deleted while another context labels it (an `ADD`
    /// that does not change the place's version); the label must not keep listing the
    /// deleted place.
    @Test(arguments: policies)
    func deletingAPlaceLabelledMeanwhileLeavesNoDanglingLabel(policy: MergePolicy) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            try await seed(fixture, labelled: false)
            let context = fixture.context(policy)
            let place = try await load(context, "Place", "p0")
            try await setLabel(fixture, true)
            context.delete(place)
            let saved = try await save(context)
            #expect(saved == (policy != .error))
            let (placeLabels, labelPlaces) = try await labels(fixture)
            if policy == .rollback || policy == .error {
                #expect(placeLabels == .ss(["l2"]) && labelPlaces == .ss(["p0"]))
            } else {
                #expect(try await fixture.item("Places", ["id": .s("p0")]) == nil)
                #expect(labelPlaces == nil)
            }
            #expect(try await GraphChecker(client: fixture.client).check().problems == [])
        }
    }
}
