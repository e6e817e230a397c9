import Foundation
import Synchronization
import Testing
@testable import DynamoClient

/// Caching, refresh ahead of expiry without waiting, single-flight refreshes, backoff after
/// failures.
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
            return AWSCredentials(
                accessKeyID: "AKID\(call)", secretAccessKey: "s", sessionToken: "t",
                expiration: clock.now().addingTimeInterval(lifetime))
        }
    }

    final class TestClock: Sendable {
        let offset = Mutex<TimeInterval>(0)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func now() -> Date { start.addingTimeInterval(offset.withLock { $0 }) }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    /// A provider whose call blocks until released, to show callers do not wait for it.
    final class GatedProvider: CredentialProvider {
        let calls = Atomic<Int>(0)
        let gate = AsyncStream<Void>.makeStream()
        let clock: TestClock

        init(clock: TestClock) { self.clock = clock }

        func resolveCredentials() async throws -> AWSCredentials? {
            let call = calls.add(1, ordering: .relaxed).newValue
            if call > 1 { for await _ in gate.stream { break } }
            return AWSCredentials(
                accessKeyID: "AKID\(call)", secretAccessKey: "s",
                expiration: clock.now().addingTimeInterval(600))
        }
    }

    @Test func singleFlightAndRefreshAheadOfExpiry() async throws {
        let clock = TestClock()
        let base = CountingProvider(clock: clock, lifetime: 3600)
        let cache = CachingCredentialProvider(base, refreshWindow: .seconds(300), now: { clock.now() })
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.resolveCredentials()?.accessKeyID } }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(ids == ["AKID1"])
        #expect(base.calls.load(ordering: .relaxed) == 1)

        clock.advance(3000) // 10 minutes left: still fresh
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        clock.advance(400) // 200 s left, inside the 5-minute window: refreshed in the background
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        await cache.settled()
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID2")
        #expect(base.calls.load(ordering: .relaxed) == 2)
    }

    @Test func callersDoNotWaitForARefreshAheadOfExpiry() async throws {
        let clock = TestClock()
        let base = GatedProvider(clock: clock)
        let cache = CachingCredentialProvider(base, refreshWindow: .seconds(300), now: { clock.now() })
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        clock.advance(400) // inside the window; the refresh blocks until the gate opens
        for _ in 0..<5 { #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1") }
        #expect(base.calls.load(ordering: .relaxed) == 2)
        base.gate.continuation.yield()
        await cache.settled()
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID2")
    }

    @Test func failedRefreshKeepsValidCredentialsAndBacksOff() async throws {
        let clock = TestClock()
        let base = CountingProvider(clock: clock, lifetime: 600)
        let cache = CachingCredentialProvider(
            base, refreshWindow: .seconds(300), failureBackoff: .seconds(10),
            maximumFailureBackoff: .seconds(40), now: { clock.now() })
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        base.failing.store(true, ordering: .relaxed)
        clock.advance(400) // inside the window but not expired: the old credentials, one refresh
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        await cache.settled()
        #expect(base.calls.load(ordering: .relaxed) == 2)
        for _ in 0..<5 { #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1") }
        #expect(base.calls.load(ordering: .relaxed) == 2) // backing off: no call per request

        clock.advance(300) // expired, and the 10 s backoff has passed: the caller waits, it fails
        await #expect(throws: CredentialError.self) { try await cache.resolveCredentials() }
        #expect(base.calls.load(ordering: .relaxed) == 3)
        // Now 20 s of backoff: calls fail at once with the last error, without a refresh.
        clock.advance(19)
        await #expect(throws: CredentialError.self) { try await cache.resolveCredentials() }
        #expect(base.calls.load(ordering: .relaxed) == 3)
        clock.advance(2)
        await #expect(throws: CredentialError.self) { try await cache.resolveCredentials() }
        #expect(base.calls.load(ordering: .relaxed) == 4)
        // Recovery resets the backoff.
        base.failing.store(false, ordering: .relaxed)
        clock.advance(41)
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID5")
    }

    /// A source that keeps handing out credentials already inside the refresh window is asked
    /// again after a backoff, not on every call; expired credentials are replaced at once.
    @Test func credentialsDueAgainAreNotRefreshedOnEveryCall() async throws {
        let clock = TestClock()
        let base = CountingProvider(clock: clock, lifetime: 200)
        let cache = CachingCredentialProvider(
            base, refreshWindow: .seconds(300), failureBackoff: .seconds(150),
            maximumFailureBackoff: .seconds(1000), now: { clock.now() })
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        for _ in 0..<5 { #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1") }
        await cache.settled()
        #expect(base.calls.load(ordering: .relaxed) == 1)
        clock.advance(151) // the backoff passed: one background refresh
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID1")
        await cache.settled()
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID2")
        #expect(base.calls.load(ordering: .relaxed) == 2)
        clock.advance(201) // AKID2 expired inside the (now 300 s) backoff: replaced at once
        #expect(try await cache.resolveCredentials()?.accessKeyID == "AKID3")
        #expect(base.calls.load(ordering: .relaxed) == 3)
    }

    @Test func noCredentialsIsNotRetriedOnEveryCall() async throws {
        final class Empty: CredentialProvider {
            let calls = Atomic<Int>(0)
            func resolveCredentials() async throws -> AWSCredentials? {
                calls.add(1, ordering: .relaxed)
                return nil
            }
        }
        let clock = TestClock()
        let base = Empty()
        let cache = CachingCredentialProvider(base, failureBackoff: .seconds(5), now: { clock.now() })
        for _ in 0..<3 { #expect(try await cache.resolveCredentials() == nil) }
        #expect(base.calls.load(ordering: .relaxed) == 1)
        clock.advance(6)
        #expect(try await cache.resolveCredentials() == nil)
        #expect(base.calls.load(ordering: .relaxed) == 2)
    }
}
