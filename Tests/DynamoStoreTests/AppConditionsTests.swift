import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Synchronization
import Testing

/// What an app on a phone meets: the network goes away during a save, and the user leaves a
/// screen whose fetch is still running.
struct AppConditionsTests {
    /// The platform's transport with a switch: offline, every request fails as an unreachable
    /// network does; holding, requests wait until their task is cancelled (and count that).
    final class PhoneTransport: HTTPTransport {
        private let inner: any HTTPTransport
        private let state = Mutex((offline: false, holding: false, held: 0, cancelled: 0))

        init(inner: any HTTPTransport) {
            self.inner = inner
        }

        func set(offline: Bool = false, holding: Bool = false) {
            state.withLock {
                $0.offline = offline; $0.holding = holding
            }
        }

        var held: Int { state.withLock { $0.held } }
        var cancelled: Int { state.withLock { $0.cancelled } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            let (offline, holding) = state.withLock { ($0.offline, $0.holding) }
            if offline { throw TransportError(.connectionFailed, "The Internet connection appears to be offline.") }
            if holding {
                state.withLock { $0.held += 1 }
                do {
                    try await Task.sleep(for: .seconds(600))
                } catch {
                    state.withLock { $0.cancelled += 1 }
                    throw error
                }
            }
            return try await inner.send(request, timeouts: timeouts)
        }
    }

    static func withPhoneStore<T>(_ body: (DynamoStore, PhoneTransport) async throws -> T) async throws -> T {
        try await withTestServer { endpoint in
            let transport = PhoneTransport(inner: endpoint.transport)
            var configuration = DynamoClient.Configuration(
                region: "us-east-1", endpoint: endpoint.url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
            configuration.transport = transport
            configuration.retry = RetryConfiguration(baseDelay: .milliseconds(1))
            let store = try DynamoStore(types: Models.types, client: try DynamoClient(configuration: configuration))
            try await store.createTables(pollInterval: .milliseconds(10))
            return try await body(store, transport)
        }
    }

    @Test func saveWithoutNetworkKeepsTheChangesAndIsRetryable() async throws {
        try await Self.withPhoneStore { store, transport in
            let context = ObjectContext(store: store)
            let cafe = context.newLocation("Café")
            transport.set(offline: true)
            let error = await #expect(throws: TransportError.self) { try await context.save() }
            #expect(error?.isRetryable == true)
            #expect(context.hasChanges)
            #expect(cafe.name == "Café")

            transport.set(offline: false)
            try await context.save()
            #expect(!context.hasChanges)
            let stored = try await ObjectContext(store: store).existingObject(with: cafe.objectID, as: Location.self)
            #expect(stored?.name == "Café")
        }
    }

    @Test func fetchAndFaultCancelledWithTheirTaskCancelTheRequest() async throws {
        try await Self.withPhoneStore { store, transport in
            let writer = ObjectContext(store: store)
            let cafe = writer.newLocation("Café")
            try await writer.save()
            let id = cafe.objectID
            transport.set(holding: true)

            let fetch = Task {
                let context = ObjectContext(store: store)
                return try await context.fetch(FetchRequest<Location>(in: store.model)).count
            }
            while transport.held < 1 { try await Task.sleep(for: .milliseconds(5)) }
            fetch.cancel()
            await #expect(throws: CancellationError.self) { try await fetch.value }
            #expect(transport.cancelled == 1)

            let fault = Task {
                let context = ObjectContext(store: store)
                return try await context.existingObject(with: id, as: Location.self)?.name
            }
            while transport.held < 2 { try await Task.sleep(for: .milliseconds(5)) }
            fault.cancel()
            await #expect(throws: CancellationError.self) { try await fault.value }
            #expect(transport.cancelled == 2)
        }
    }
}
