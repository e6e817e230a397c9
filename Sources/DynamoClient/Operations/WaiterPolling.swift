/// What one poll of a waiter found.
enum PollOutcome<Value: Sendable>: Sendable {
    /// The wanted state: stop and return it.
    case done(Value)
    /// Not yet: poll again after the delay.
    case pending
    /// A state the resource never leaves for the wanted one (FAILED, CANCELLED …): stop with
    /// ``DynamoClientError/waiterFailed(_:)``.
    case failed(String)
}

extension DynamoClient {
    /// Polls `check` every `delay` until it reports done or failed, at most `maximumAttempts`
    /// times.
    ///
    /// - Parameter what: The waited-for state, for the timeout's message.
    /// - Throws: ``DynamoClientError/waiterTimedOut(_:)`` after the last poll,
    ///   ``DynamoClientError/waiterFailed(_:)`` for a failed state; what `check` throws.
    func poll<Value: Sendable>(
        _ what: String, delay: Duration, maximumAttempts: Int, _ check: () async throws -> PollOutcome<Value>
    ) async throws -> Value {
        let attempts = max(1, maximumAttempts)
        for attempt in 1...attempts {
            switch try await check() {
            case .done(let value): return value
            case .failed(let reason): throw DynamoClientError.waiterFailed(reason)
            case .pending: break
            }
            if attempt < attempts { try await Task.sleep(for: delay) }
        }
        throw DynamoClientError.waiterTimedOut("\(what) after \(attempts) attempts")
    }
}
