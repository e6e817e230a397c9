/// The AWS SDKs' "standard" retry mode, with its numbers as parameters.
///
/// An attempt that fails with a retryable error is retried after a full-jitter exponential
/// backoff, `random() × min(baseDelay × 2^(attempt−1), maximumBackoff)`, while attempts remain
/// and the client's retry token bucket can pay for the retry (5 tokens, 10 after a timeout;
/// a success returns the retry's cost, or 1 token when it needed no retry).
///
/// In the "adaptive" mode (``RetryMode/adaptive``, `AWS_RETRY_MODE=adaptive` or the profile's
/// `retry_mode = adaptive`) the client also limits its own send rate after throttling errors
/// (see ``AdaptiveRateLimiter``), as botocore's adaptive mode does.
///
/// Randomness, sleeping and the adaptive mode's clock are injected so tests run instantly and
/// deterministically.
///
/// ```swift
/// var retry = RetryConfiguration()
/// retry.maximumAttempts = 5
/// ```
public struct RetryConfiguration: Sendable {
    /// Attempts per call, the first included (default 3; `AWS_MAX_ATTEMPTS` or the profile's
    /// `max_attempts` override the default when the client resolves its configuration).
    public var maximumAttempts: Int
    /// The backoff's scale for the first retry (default 1 s, botocore's standard mode).
    public var baseDelay: Duration
    /// The backoff's cap (default 20 s).
    public var maximumBackoff: Duration
    /// The retry token bucket's size (default 500).
    public var tokenBucketCapacity: Int
    /// Tokens a retry costs (default 5).
    public var retryCost: Int
    /// Tokens a retry after a timeout costs (default 10).
    public var timeoutRetryCost: Int
    /// Tokens a success without retries returns (default 1).
    public var noRetryIncrement: Int
    /// A uniform random number in `0..<1` (injected in tests).
    public var random: @Sendable () -> Double
    /// Sleeps for a duration (injected in tests).
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Standard or adaptive (`nil` in code: `AWS_RETRY_MODE` or the profile's `retry_mode`
    /// decide when the client resolves its configuration, else standard).
    public var mode: RetryMode?
    /// A monotonic clock in seconds for the adaptive mode's rate measurements (injected in
    /// tests).
    public var monotonicSeconds: @Sendable () -> Double

    /// Creates the standard configuration; every parameter has the standard mode's value.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(20),
        tokenBucketCapacity: Int = 500,
        retryCost: Int = 5,
        timeoutRetryCost: Int = 10,
        noRetryIncrement: Int = 1,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        mode: RetryMode? = nil,
        monotonicSeconds: (@Sendable () -> Double)? = nil
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumBackoff = maximumBackoff
        self.tokenBucketCapacity = tokenBucketCapacity
        self.retryCost = retryCost
        self.timeoutRetryCost = timeoutRetryCost
        self.noRetryIncrement = noRetryIncrement
        self.random = random
        self.sleep = sleep
        self.mode = mode
        self.monotonicSeconds = monotonicSeconds ?? { (ContinuousClock.now - retryClockOrigin).timeInterval }
    }

    /// No retries at all: one attempt per call.
    public static var disabled: RetryConfiguration { RetryConfiguration(maximumAttempts: 1) }

    /// The delay before retry number `attempt` (1 for the first retry).
    public func backoff(attempt: Int) -> Duration {
        let exponent = Double(1 << min(max(attempt - 1, 0), 30))
        let ceiling = min(baseDelay * exponent, maximumBackoff)
        return ceiling * min(max(random(), 0), 1)
    }
}

/// The AWS SDKs' retry modes (`legacy` is read as standard).
public enum RetryMode: String, Sendable, CaseIterable {
    /// Backoff with jitter and a retry quota.
    case standard
    /// Standard, plus client-side rate limiting after throttling errors.
    case adaptive
}

/// The origin of ``RetryConfiguration/monotonicSeconds``'s default clock.
let retryClockOrigin = ContinuousClock.now
