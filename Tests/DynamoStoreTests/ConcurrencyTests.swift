import DynamoAPI
import DynamoStore
import Dispatch
import Testing

/// A serial executor on a dispatch queue that can tell whether code runs on it.
final class QueueExecutor: SerialExecutor {
    static let marker = DispatchSpecificKey<Bool>()
    private let queue = DispatchQueue(label: "DynamoStoreTests.QueueExecutor")

    init() {
        queue.setSpecific(key: Self.marker, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on the queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }
}

/// A global actor standing in for the main actor, on an executor the test can observe.
@globalActor actor AppActor {
    static let shared = AppActor()
    private static let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }
}

/// What an app does: an actor-isolated view model owns its context. Without
/// `NonisolatedNonsendingByDefault` on the DynamoStore target, `await context.save()` here does
/// not compile ("sending 'self.context' risks causing data races"), and the save would run on
/// the global executor instead of the caller's actor.
@AppActor final class LocationsViewModel {
    let context: ObjectContext
    private(set) var validatedOnCallersActor: [Bool] = []

    init(store: DynamoStore) {
        context = ObjectContext(store: store)
        context.addValidationRule(for: "Location") { [unowned self] _ in
            self.validatedOnCallersActor.append(QueueExecutor.isCurrent)
        }
    }

    func add(_ name: String) async throws -> ObjectID {
        let location = context.newLocation(name)
        try await context.save()
        #expect(QueueExecutor.isCurrent)
        return location.objectID
    }
}

@Suite struct ConcurrencyTests {
    @Test func aContextOwnedByAnActorRunsItsSavesOnThatActor() async throws {
        try await withStore { fixture in try await Self.saveFromViewModel(fixture) }
    }

    @AppActor private static func saveFromViewModel(_ fixture: StoreFixture) async throws {
        let model = LocationsViewModel(store: fixture.store)
        let id = try await model.add("Home")
        #expect(model.validatedOnCallersActor == [true])
        #expect(try await fixture.item("Locations", id.key)?["name"] == .s("Home"))
    }
}
