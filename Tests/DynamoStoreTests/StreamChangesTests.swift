import DynamoAPI
import DynamoClient
@testable import DynamoStore
import DynamoTestSupport
import Foundation
import Synchronization
import Testing

/// Two stores that share nothing but the server (as two processes would: separate clients,
/// models and contexts) see each other's saves through DynamoDB Streams.
@Suite struct StreamChangesTests {
    /// Collects a change stream on a task of its own, so a test can wait for a change naming
    /// an object without holding the iterator.
    final class Inbox: Sendable {
        /// What the collecting task and the test share.
        final class Received: Sendable {
            let changes = Mutex<[StoreChanges]>([])
            let failure = Mutex<String?>(nil)
        }
        private let shared = Received()
        private let task: Task<Void, Never>

        init(_ stream: AsyncThrowingStream<StoreChanges, any Error>) {
            let shared = shared
            task = Task {
                do {
                    for try await changes in stream { shared.changes.withLock { $0.append(changes) } }
                } catch {
                    shared.failure.withLock { $0 = "\(error)" }
                }
            }
        }

        deinit { task.cancel() }

        /// The changes received until `done` holds for them, merged into one value (and taken
        /// out of the inbox); waits up to `seconds`, checking every 10 ms.
        func changes(until done: (StoreChanges) -> Bool, within seconds: Double = 10) async throws -> StoreChanges {
            let deadline = ContinuousClock.now + .seconds(seconds)
            var merged = StoreChanges()
            while ContinuousClock.now < deadline {
                if let error = shared.failure.withLock({ $0 }) { throw StoreError.invalidValue("stream failed: \(error)") }
                for change in shared.changes.withLock({ list in
                    defer { list = [] }; return list
                }) {
                    merged.inserted.formUnion(change.inserted)
                    merged.updated.formUnion(change.updated)
                    merged.deleted.formUnion(change.deleted)
                }
                if done(merged) { return merged }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw StoreError.invalidValue("the expected changes did not arrive within \(seconds) s; received \(merged)")
        }
    }

    static func store(_ endpoint: TestEndpoint) throws -> DynamoStore {
        let client = try makeTestClient(endpoint, transport: RecordingTransport(endpoint))
        return try DynamoStore(types: Models.types, client: client)
    }

    @Test func twoStoresSeeEachOthersSavesThroughTheStreams() async throws {
        try await withTestServer { endpoint in
            let first = try Self.store(endpoint)
            let second = try Self.store(endpoint)
            try await first.createTables(pollInterval: .milliseconds(10))
            try await first.enableChangeStreams(pollInterval: .milliseconds(10))
            let seenBySecond = Inbox(try await second.changes(fromStream: .latest, pollInterval: .milliseconds(20)))
            let seenByFirst = Inbox(try await first.changes(fromStream: .latest, pollInterval: .milliseconds(20)))

            // The first inserts a place: the second learns of it and reads it.
            let a = ObjectContext(store: first)
            let home = a.newLocation("Home")
            try await a.save()
            _ = try await seenBySecond.changes(until: { $0.inserted.contains(home.objectID) })
            let b = ObjectContext(store: second)
            let mirror = try #require(try await b.existingObject(with: home.objectID, as: Location.self))
            #expect(mirror.name == "Home")

            // The first renames it while the second has an unsaved change: the merge brings the
            // new name and keeps the unsaved value on top.
            mirror.latitude = 7
            home.name = "Renamed by the first"
            try await a.save()
            try await b.mergeChanges(from: try await seenBySecond.changes(until: { $0.updated.contains(home.objectID) }))
            #expect(mirror.name == "Renamed by the first" && mirror.latitude == 7 && b.hasChanges)

            // The second saves a check-in at the place (and its latitude): the first merges both.
            let visit = Checkin(context: b)
            visit.location = mirror
            try await b.save()
            // (the first's own saves come back too: the home's insert and rename)
            let fromSecond = try await seenByFirst.changes(until: {
                $0.inserted.contains(visit.objectID) && $0.updated.contains(home.objectID)
            })
            try await a.mergeChanges(from: fromSecond)
            #expect(home.latitude == 7)
            #expect(home.checkins.map(\.objectID) == [visit.objectID])

            // The first deletes the place (its check-ins cascade): the second's objects go.
            a.delete(home)
            try await a.save()
            let deleted = try await seenBySecond.changes(until: {
                $0.deleted.contains(home.objectID) && $0.deleted.contains(visit.objectID)
            })
            try await b.mergeChanges(from: deleted)
            #expect(try await b.existingObject(with: home.objectID) == nil)
        }
    }

    @Test func followingATableWithoutAStreamIsAnError() async throws {
        try await withStore { fixture in
            let tables = fixture.store.model.entities.map(\.tableName)
            let error = await #expect(throws: StoreError.self) { _ = try await fixture.store.changes(fromStream: .latest) }
            guard case .streamNotEnabled(let table)? = error else {
                Issue.record("expected streamNotEnabled, got \(String(describing: error))")
                return
            }
            #expect(tables.contains(table))
        }
    }

    @Test func recordsFoldIntoOneChangePerObject() {
        func record(_ event: StreamsOperationType, _ key: String) -> StreamsRecord {
            StreamsRecord(eventName: event, dynamodb: StreamsStreamRecord(keys: ["id": .s(key)]))
        }
        var changes = StoreChanges()
        for entry in [
            record(.insert, "a"), record(.modify, "a"), record(.remove, "b"), record(.insert, "b"),
            record(.modify, "c"), record(.remove, "c"), record(.insert, "d"), record(.remove, "d"),
        ] {
            StreamFollower.apply(entry, entity: "E", to: &changes)
        }
        let id = { (key: String) in ObjectID(entityName: "E", key: ["id": .s(key)]) }
        #expect(changes.inserted == [id("a")])
        #expect(changes.updated == [id("b")])
        #expect(changes.deleted == [id("c"), id("d")])
    }
}
