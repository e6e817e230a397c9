import DynamoAPI
import Foundation

extension DynamoClient {
    /// Runs `TransactWriteItems` until it succeeds, a non-transient failure, or `maximumRounds`,
    /// sending the same `ClientRequestToken` every time, so DynamoDB applies the transaction at
    /// most once even when an earlier round's answer was lost.
    ///
    /// Each round is one ``send(_:)`` (which itself retries throttling, 5xx and transport
    /// failures in the standard mode, with the same token). A round is repeated after the retry
    /// configuration's jittered backoff when it failed with what a later round can fix: the
    /// client's own retries ran out (a ``TransportError``, a throttling or 5xx error,
    /// `TransactionInProgressException`), or `TransactionCanceledException` whose reasons are
    /// only `TransactionConflict` / throttling (another transaction touched an item). A failed
    /// condition check, a validation error or an `IdempotentParameterMismatchException` ends
    /// the call at once.
    ///
    /// ```swift
    /// let output = try await client.transactWrite([
    ///     TransactWriteItem(update: try Update(key: ["id": .s("a")], tableName: "Accounts",
    ///                                          update: .set("balance", .subtract(10)),
    ///                                          condition: ConditionExpression.attribute("balance") >= 10)),
    ///     TransactWriteItem(update: try Update(key: ["id": .s("b")], tableName: "Accounts",
    ///                                          update: .set("balance", .add(10)))),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - items: Up to 100 actions.
    ///   - clientRequestToken: The idempotency token (default: a new UUID for this call); give
    ///     your own to make retries of a whole operation idempotent for DynamoDB's 10 minutes.
    ///   - maximumRounds: Rounds in all, the first included (default 3).
    ///   - returnConsumedCapacity: Sent as `ReturnConsumedCapacity`.
    /// - Returns: The last round's output.
    /// - Throws: The last round's error.
    public func transactWrite(
        _ items: [TransactWriteItem], clientRequestToken: String? = nil, maximumRounds: Int = 3,
        returnConsumedCapacity: ReturnConsumedCapacity? = nil
    ) async throws -> TransactWriteItemsOutput {
        var input = TransactWriteItemsInput(transactItems: items, returnConsumedCapacity: returnConsumedCapacity)
        input.clientRequestToken = clientRequestToken ?? UUID().uuidString.lowercased()
        var round = 1
        while true {
            do {
                return try await transactWriteItems(input)
            } catch {
                guard round < maximumRounds, Self.transactionRoundMayBeRepeated(error) else { throw error }
                try await retry.sleep(retry.backoff(attempt: round))
                round += 1
            }
        }
    }

    /// Whether a failed `TransactWriteItems` round may be sent again with its token.
    static func transactionRoundMayBeRepeated(_ error: any Error) -> Bool {
        if let error = error as? DynamoError {
            if error.code == .transactionCanceled {
                let codes = (error.cancellationReasons ?? []).compactMap(\.code).filter { $0 != "None" }
                return !codes.isEmpty
                    && codes.allSatisfy { ["TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"].contains($0) }
            }
        }
        return classify(error, status: nil) == .retryable || classify(error, status: nil) == .timeout
    }
}
