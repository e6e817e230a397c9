import DynamoAPI
import DynamoStore
import DynamoTestSupport
import Foundation
import Testing

/// Several contexts edit one graph at once, each save under a random merge policy; afterwards
/// the stored graph must be whole: every inverse agrees, no reference dangles, and no visit
/// whose insert was acknowledged is missing unless someone tried to delete it.
@Suite struct GraphConcurrencyTests {
    static let places = (0..<3).map { "p\($0)" }
    static let labels = (0..<3).map { "l\($0)" }

    /// The run's size: `STORE_GRAPH_SEEDS` (a count, seeds 1…n, or a range `a-b`; default 3),
    /// `STORE_GRAPH_WORKERS` (default 4) and `STORE_GRAPH_STEPS` (default 25). `scripts/test`
    /// runs the default; `scripts/bench`'s store section a long run.
    static let seeds: [UInt64] = {
        let text = ProcessInfo.processInfo.environment["STORE_GRAPH_SEEDS"] ?? "3"
        let bounds = text.split(separator: "-").compactMap { UInt64($0) }
        if bounds.count == 2, bounds[0] <= bounds[1] { return Array(bounds[0]...bounds[1]) }
        return Array(1...max(1, bounds.first ?? 3))
    }()
    static let workers = ProcessInfo.processInfo.environment["STORE_GRAPH_WORKERS"].flatMap { Int($0) } ?? 4
    static let steps = ProcessInfo.processInfo.environment["STORE_GRAPH_STEPS"].flatMap { Int($0) } ?? 25

    @Test(arguments: seeds)
    func concurrentEditsKeepTheGraphWhole(seed: UInt64) async throws {
        try await Self.run(seed: seed, workers: Self.workers, steps: Self.steps)
    }

    /// The workload: `workers` tasks, `steps` saves each.
    static func run(seed: UInt64, workers: Int, steps: Int) async throws {
        try await withStore(model: try GraphModel.model()) { fixture in
            let setup = fixture.context()
            var placeObjects: [ManagedObject] = []
            for id in places {
                let place = ManagedObject(entity: GraphModel.place, context: setup)
                place["id"] = id
                place["name"] = id
                placeObjects.append(place)
            }
            for id in labels {
                let label = ManagedObject(entity: GraphModel.label, context: setup)
                label["id"] = id
            }
            for index in 0..<4 {
                let visit = ManagedObject(entity: GraphModel.visit, context: setup)
                visit["id"] = "v\(index)"
                visit["place"] = placeObjects[index % placeObjects.count]
            }
            try await setup.save()
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        var worker = Worker(store: fixture.store, index: worker, random: SeededRandom(seed: seed &* 1000 &+ UInt64(worker)))
                        for step in 0..<steps { try await worker.step(step) }
                        return worker.outcome
                    }
                }
                var all = Outcome()
                for try await outcome in group {
                    all.inserted.formUnion(outcome.inserted)
                    all.deleteTried.formUnion(outcome.deleteTried)
                    all.failures += outcome.failures
                    all.saves += outcome.saves
                }
                return all
            }
            let (problems, _, visits) = try await GraphChecker(client: fixture.client).check()
            let lost = outcomes.inserted.subtracting(outcomes.deleteTried).subtracting(visits)
            #expect(outcomes.failures == [], "seed \(seed)")
            #expect(problems == [], "seed \(seed)")
            #expect(lost == [], "seed \(seed): acknowledged visits missing")
            #expect(outcomes.saves > 0)
        }
    }

    struct Outcome: Sendable {
        var inserted: Set<String> = []
        var deleteTried: Set<String> = []
        var failures: [String] = []
        var saves = 0
    }

    /// One task's random edits, each in a fresh context.
    struct Worker {
        let store: DynamoStore
        let index: Int
        var random: SeededRandom
        var outcome = Outcome()

        mutating func step(_ step: Int) async throws {
            let context = ObjectContext(store: store)
            context.mergePolicy = random.pick([.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback])
            let visitIDs = (0..<4).map { "v\($0)" } + outcome.inserted.sorted()
            var inserted: String?
            var described = ""
            do {
                switch random.int(0..<7) {
                case 0, 1:
                    let id = "w\(index)s\(step)"
                    let place = try await load(context, GraphModel.id("Place", random.pick(GraphConcurrencyTests.places)))
                    await Task.yield()
                    let visit = ManagedObject(entity: GraphModel.visit, context: context)
                    visit["id"] = id
                    visit["place"] = place
                    inserted = id
                    described = "insert \(id) at \(place?.objectID.description ?? "-")"
                case 2:
                    let id = random.pick(visitIDs)
                    guard let visit = try await load(context, GraphModel.id("Visit", id)) else { return }
                    let target = random.chance(25) ? nil : try await load(context, GraphModel.id("Place", random.pick(GraphConcurrencyTests.places)))
                    await Task.yield()
                    visit["place"] = target
                    described = "move \(id) to \(target?.objectID.description ?? "nothing")"
                case 3:
                    let id = random.pick(visitIDs)
                    outcome.deleteTried.insert(id)
                    guard let visit = try await load(context, GraphModel.id("Visit", id)) else { return }
                    await Task.yield()
                    context.delete(visit)
                    described = "delete \(id)"
                case 4:
                    guard let place = try await load(context, GraphModel.id("Place", random.pick(GraphConcurrencyTests.places))),
                        let label = try await load(context, GraphModel.id("Label", random.pick(GraphConcurrencyTests.labels)))
                    else { return }
                    await Task.yield()
                    var labels = place["labels"] as? Set<ManagedObject> ?? []
                    if labels.remove(label) == nil { labels.insert(label) }
                    place["labels"] = labels
                    described = "toggle label of \(place.objectID)"
                case 6:
                    // One key deleted and inserted again in one save: one `Put` over the row as read.
                    let id = random.pick(visitIDs)
                    outcome.deleteTried.insert(id)
                    guard let visit = try await load(context, GraphModel.id("Visit", id)) else { return }
                    let place = try await load(context, GraphModel.id("Place", random.pick(GraphConcurrencyTests.places)))
                    await Task.yield()
                    context.delete(visit)
                    let again = ManagedObject(entity: GraphModel.visit, context: context)
                    again["id"] = id
                    again["place"] = place
                    described = "delete \(id) and insert it again at \(place?.objectID.description ?? "-")"
                default:
                    guard let place = try await load(context, GraphModel.id("Place", random.pick(GraphConcurrencyTests.places))) else { return }
                    await Task.yield()
                    place["name"] = "w\(index)s\(step)"
                    described = "rename \(place.objectID)"
                }
                try await context.save()
                outcome.saves += 1
                if let inserted { outcome.inserted.insert(inserted) }
            } catch is MergeConflictError where context.mergePolicy == .error {
                return
            } catch {
                outcome.failures.append("worker \(index) step \(step) (\(described), \(context.mergePolicy)): \(error)")
            }
        }

        private func load(_ context: ObjectContext, _ id: ObjectID) async throws -> ManagedObject? {
            try await context.existingObject(with: id)
        }
    }
}
