import DynamoAPI

/// Receives one report per finished call of a ``DynamoClient``: the operation, how long it
/// took, how many attempts it needed, what capacity it consumed and how it failed.
///
/// Set it as ``DynamoClient/Configuration/observer``; it is called on the task that made the
/// call, after the last attempt, so keep it quick (hand the numbers to a metrics library).
///
/// ```swift
/// struct Metrics: DynamoClientObserver {
///     func operationDidFinish(_ report: OperationReport) {
///         histogram(report.operation).record(report.duration)
///     }
/// }
/// var configuration = DynamoClient.Configuration()
/// configuration.observer = Metrics()
/// ```
public protocol DynamoClientObserver: Sendable {
    /// One call finished (successfully or not).
    func operationDidFinish(_ report: OperationReport)
}

/// What one call of a ``DynamoClient`` did. The same numbers go to the client's logger at
/// debug level, as metadata of the line `DynamoClient operation`.
public struct OperationReport: Sendable {
    /// The operation, e.g. `PutItem` (the `X-Amz-Target` without its prefix).
    public var operation: String
    /// Attempts sent, the first included (retries are attempts beyond the first).
    public var attempts: Int
    /// From the call's start to its end, backoff sleeps included.
    public var duration: Duration
    /// The `ConsumedCapacity` of the response (one per table for batches and transactions);
    /// empty unless the request asked for it with `ReturnConsumedCapacity`.
    public var consumedCapacity: [ConsumedCapacity]
    /// The failure's short code (`ConditionalCheckFailedException`, `TransportError.timeout` …),
    /// `nil` on success.
    public var errorCode: String?

    /// The capacity units consumed in all (`nil` when the response reported none).
    public var totalCapacityUnits: Double? {
        let units = consumedCapacity.compactMap(\.capacityUnits)
        return units.isEmpty ? nil : units.reduce(0, +)
    }
}
