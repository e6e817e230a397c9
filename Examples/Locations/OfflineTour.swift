import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Synchronization

/// The phone's network in the example: a switch in front of the real transport, so the tour
/// can go offline and come back without touching the network.
final class Radio: HTTPTransport {
    private let inner = DynamoClient.defaultTransport()
    private let offline = Mutex(false)

    var isOffline: Bool {
        get { offline.withLock { $0 } }
        set { offline.withLock { $0 = newValue } }
    }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        if isOffline { throw TransportError(.connectionFailed, "the example is offline") }
        return try await inner.send(request, timeouts: timeouts)
    }
}

extension LocationsExample {
    /// The offline mode: the same model with an ``OfflineStore`` on a file (`file`), a save
    /// made offline, read back offline, found again by a second launch of the store, and
    /// replayed when the network is back.
    static func offlineTour(configuration: DynamoClient.Configuration, file: String) async throws {
        let radio = Radio()
        var configuration = configuration
        configuration.transport = radio
        configuration.retry = .disabled
        let client = try DynamoClient(configuration: configuration)
        func launch() throws -> DynamoStore {
            try DynamoStore(types: [Location.self, Checkin.self], client: client, offline: try OfflineStore(path: file))
        }
        var store = try launch()
        let context = ObjectContext(store: store)
        let byName = try FetchRequest<Location>(in: store.model, sortBy: [.ascending("name")])
        let locations = try await context.fetch(byName)
        say("offline mode: \(locations.count) locations read and cached in \(URL(fileURLWithPath: file).lastPathComponent)")

        radio.isOffline = true
        let harbour = try require(locations.first { $0.name == "Harbour" }, "the Harbour")
        let checkin = Checkin(context: context)
        checkin.comment = "written offline"
        checkin.checkinTime = Date(timeIntervalSince1970: 1_767_312_000)
        checkin.location = harbour
        try await context.save()
        let museum = try require(locations.first { $0.name == "Museum" }, "the Museum")
        museum.name = "Museum of the Sea"
        try await context.save()
        say("offline: 2 saves committed to the device, \(try store.offline?.pendingEntries().count ?? 0) in the outbox")

        // The app is killed and launched again, still offline: cache and outbox are there.
        store = try launch()
        let relaunched = ObjectContext(store: store)
        let names = try await relaunched.fetch(try FetchRequest<Location>(in: store.model, sortBy: [.ascending("name")])).map(\.name)
        say("relaunched offline: \(try store.offline?.pendingEntries().count ?? 0) saves waiting; locations \(names)")
        let harbourVisits = try FetchRequest<Checkin>(
            in: store.model, predicate: FetchPredicate("location == %@", harbour.objectID), sortBy: [.descending("checkinTime")])
        say(
            "  Harbour check-ins on the device (the local save; check-ins never read are not cached): \(try await relaunched.fetch(harbourVisits).compactMap(\.comment))"
        )

        radio.isOffline = false
        for outcome in try await store.replayOutbox() {
            let resolutions = outcome.objects.values.map { "\($0)" }.sorted().joined(separator: ", ")
            say("  replayed save \(outcome.sequence): \(outcome.failure ?? resolutions)")
        }
        let online = ObjectContext(store: try DynamoStore(types: [Location.self, Checkin.self], client: client))
        let stored = try await online.fetch(try FetchRequest<Location>(in: store.model, sortBy: [.ascending("name")])).map(\.name)
        say("back online: DynamoDB has \(stored), outbox empty: \(try store.offline?.pendingEntries().isEmpty ?? false)")
    }
}
