import Synchronization

/// The client-wide retry quota of the standard retry mode.
///
/// Retries draw tokens; when the bucket cannot pay, the error is returned without retrying, so
/// a client facing a wide outage stops multiplying its load. Successes refill it.
final class RetryTokenBucket: Sendable {
    private let capacity: Int
    private let available: Mutex<Int>

    /// Creates a full bucket.
    init(capacity: Int) {
        self.capacity = capacity
        available = Mutex(capacity)
    }

    /// Tokens currently available.
    var tokens: Int { available.withLock { $0 } }

    /// Takes `amount` tokens if there are that many.
    ///
    /// - Returns: Whether the tokens were taken.
    func acquire(_ amount: Int) -> Bool {
        available.withLock { tokens in
            guard tokens >= amount else { return false }
            tokens -= amount
            return true
        }
    }

    /// Returns `amount` tokens, never filling past capacity.
    func release(_ amount: Int) {
        available.withLock { tokens in tokens = min(capacity, tokens + amount) }
    }
}

/// How the standard retry mode classifies a failed attempt.
enum RetryClassification: Equatable {
    /// Not retried.
    case fatal
    /// Retried at the normal cost.
    case retryable
    /// Retried at the timeout cost.
    case timeout

    /// Error codes botocore's standard mode treats as throttling
    /// (`ThrottledRetryableChecker._THROTTLED_ERROR_CODES`).
    static let throttlingCodes: Set<String> = [
        "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
        "TooManyRequestsException", "ProvisionedThroughputExceededException", "TransactionInProgressException",
        "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException", "RequestThrottled",
        "SlowDown", "PriorRequestNotComplete", "EC2ThrottledException",
    ]
    /// Transient error codes (`TransientRetryableChecker._TRANSIENT_ERROR_CODES`).
    static let transientCodes: Set<String> = ["RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete"]
    /// Transient HTTP statuses.
    static let transientStatuses: Set<Int> = [500, 502, 503, 504]

    /// Classifies a DynamoDB error response.
    static func classify(code: String, status: Int) -> RetryClassification {
        if throttlingCodes.contains(code) || transientCodes.contains(code) || transientStatuses.contains(status) {
            return .retryable
        }
        return .fatal
    }

    /// Classifies a failure that produced no usable response.
    static func classify(_ error: any Error) -> RetryClassification {
        switch error {
        case let transport as TransportError:
            guard transport.isRetryable else { return .fatal }
            return transport.kind == .timedOut ? .timeout : .retryable
        case DynamoClientError.checksumMismatch:
            return .retryable
        case DynamoClientError.unexpectedResponse(let status, _, _):
            return transientStatuses.contains(status) ? .retryable : .fatal
        default:
            return .fatal
        }
    }
}
