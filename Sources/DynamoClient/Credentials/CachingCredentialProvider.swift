import Foundation

/// Caches another provider's credentials and refreshes them ahead of their expiry, as the AWS
/// SDKs do.
///
/// - Credentials without an expiration are kept for the cache's lifetime.
/// - Inside the refresh window (default: the last 5 minutes before expiry) the cached
///   credentials keep being returned at once while one refresh runs in the background; callers
///   wait only when there are no unexpired credentials.
/// - Refreshes are single-flight: concurrent callers share one call to the base provider.
/// - A failed refresh (an error, or no credentials at all) is not retried on every call: the
///   next attempt waits `failureBackoff`, doubling after each further failure up to
///   `maximumFailureBackoff`. Meanwhile unexpired credentials are still returned; without them
///   the last failure is reported again. A refresh whose credentials are already inside the
///   window is repeated only after such a backoff too (once they expire, at once).
///
/// ```swift
/// let cached = CachingCredentialProvider(CredentialProviderChain.default(transport: DynamoClient.defaultTransport()))
/// ```
public actor CachingCredentialProvider: CredentialProvider {
    private let base: any CredentialProvider
    private let refreshWindow: TimeInterval
    private let failureBackoff: TimeInterval
    private let maximumFailureBackoff: TimeInterval
    private let now: @Sendable () -> Date
    private var cached: AWSCredentials?
    private var refresh: Task<AWSCredentials?, any Error>?
    /// Consecutive refreshes that failed (or gave credentials already due for refresh), the
    /// time before which no new one starts, whether that wait follows a failure (then it also
    /// holds when nothing unexpired is cached), and the last failure (`nil`: the base provider
    /// found no credentials).
    private var failures = 0
    private var retryAfter: Date?
    private var lastRefreshFailed = false
    private var lastFailure: (any Error)?

    /// Wraps a provider.
    ///
    /// - Parameters:
    ///   - base: The provider to cache.
    ///   - refreshWindow: How long before expiry to start refreshing (default 5 minutes).
    ///   - failureBackoff: How long to wait after a failed refresh before the next (default
    ///     1 second, doubled after each further failure).
    ///   - maximumFailureBackoff: The longest such wait (default 1 minute).
    ///   - now: The clock (injected in tests).
    public init(
        _ base: any CredentialProvider, refreshWindow: Duration = .seconds(300),
        failureBackoff: Duration = .seconds(1), maximumFailureBackoff: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.refreshWindow = refreshWindow.timeInterval
        self.failureBackoff = failureBackoff.timeInterval
        self.maximumFailureBackoff = maximumFailureBackoff.timeInterval
        self.now = now
    }

    /// Unexpired cached credentials (starting a background refresh inside the refresh window),
    /// else the result of a refresh shared by all callers.
    ///
    /// - Throws: The base provider's error when there are no unexpired credentials, also while
    ///   backing off after that error.
    public func resolveCredentials() async throws -> AWSCredentials? {
        let time = now()
        if let cached, !Self.isExpired(cached, at: time) {
            if let expiration = cached.expiration, expiration.timeIntervalSince(time) <= refreshWindow {
                startRefresh(at: time)
            }
            return cached
        }
        if refresh == nil, lastRefreshFailed, let retryAfter, time < retryAfter {
            if let lastFailure { throw lastFailure }
            return nil
        }
        startRefresh(at: time, evenInBackoff: !lastRefreshFailed)
        guard let refresh else { return nil }
        return try await refresh.value
    }

    /// Waits for a running refresh to end (for tests).
    func settled() async {
        _ = try? await refresh?.value
    }

    /// Starts a refresh unless one runs or (unless `evenInBackoff`) the backoff has not passed.
    private func startRefresh(at time: Date, evenInBackoff: Bool = false) {
        guard refresh == nil, evenInBackoff || retryAfter.map({ time >= $0 }) ?? true else { return }
        let base = self.base
        refresh = Task {
            let result: Result<AWSCredentials?, any Error>
            do { result = .success(try await base.resolveCredentials()) } catch { result = .failure(error) }
            finish(result)
            return try result.get()
        }
    }

    private func finish(_ result: Result<AWSCredentials?, any Error>) {
        refresh = nil
        switch result {
        case .success(let credentials?):
            cached = credentials
            lastFailure = nil
            if let expiration = credentials.expiration, expiration.timeIntervalSince(now()) <= refreshWindow {
                // Already due again (the source rotates late): refresh after a backoff, not on
                // every call, until it hands out credentials that last longer.
                backOff(failed: false)
            } else {
                failures = 0
                retryAfter = nil
                lastRefreshFailed = false
            }
        case .success(nil):
            lastFailure = nil
            backOff(failed: true)
        case .failure(let error):
            lastFailure = error
            backOff(failed: true)
        }
    }

    private func backOff(failed: Bool) {
        failures += 1
        lastRefreshFailed = failed
        let delay = min(failureBackoff * pow(2, Double(min(failures - 1, 30))), maximumFailureBackoff)
        retryAfter = now().addingTimeInterval(delay)
    }

    private static func isExpired(_ credentials: AWSCredentials, at time: Date) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        return expiration <= time
    }
}
