import Foundation
import Synchronization
import Testing
@testable import DynamoClient

/// Caching, refresh before expiry and single-flight refreshes.
struct CachingCredentialProviderTests {
    /// Counts calls; each returns credentials expiring `lifetime` after the clock's time.
    final class CountingProvider: CredentialProvider {
        let calls = Atomic<Int>(0)
        let clock: TestClock
        let lifetime: TimeInterval
        let failing = Atomic<Bool>(false)

        init(clock: TestClock, lifetime: TimeInterval) {
            self.clock = clock
            self.lifetime = lifetime
        }

        func resolveCredentials() async throws -> AWSCredentials? {
            let call = calls.add(1, ordering: .relaxed).newValue
            try await Task.sleep(for: .milliseconds(20))
            if failing.load(ordering: .relaxed) { throw CredentialError("endpoint down") }
            return AWSCredentials(accessKeyID: "AKID\(call)", secretAccessKey: "s", sessionToken: "t",
                                  expiration: clock.now().addingTimeInterval(lifetime))
        }
    }

    final class TestClock: Sendable {
        let offset = Mutex<TimeInterval>(0)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func now() -> Date { start.addingTimeInterval(offset.withLock { $0 }) }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    @Test func singleFlightAndRefreshBeforeExpiry() async throws {
        let clock = TestClock()
        let base = CountingProvider(clock: clock, lifetime: 3600)
        let cache = CachingCredentialProvider(base, refreshWindow: .seconds(300), now: { clock.now() })
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.resolveCredentials()?.accessKeyID } }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(ids == ["AKID1"])
        #expect(base.calls.load(ordering: .relaxed) == 1)

        clock.advance(3000)  // 10 minutes left: still fresh
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        clock.advance(400)   // 200 s left, inside the 5-minute window: refresh
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID2")
        #expect(base.calls.load(ordering: .relaxed) == 2)
    }

    @Test func failedRefreshKeepsValidCredentials() async throws {
        let clock = TestClock()
        let base = CountingProvider(clock: clock, lifetime: 600)
        let cache = CachingCredentialProvider(base, refreshWindow: .seconds(300), now: { clock.now() })
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        base.failing.store(true, ordering: .relaxed)
        clock.advance(400)  // inside the window but not expired
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        clock.advance(300)  // expired
        await #expect(throws: CredentialError.self) { try await cache.resolveCredentials() }
    }
}
