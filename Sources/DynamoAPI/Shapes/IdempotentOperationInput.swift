/// An operation input with a member the service model marks `idempotencyToken`
/// (`TransactWriteItems.ClientRequestToken`, `ImportTable.ClientToken`, …).
///
/// The conformances are generated from the model. A client fills a missing token with a new
/// UUID once per call and sends the same value on every retry, so a retried request that
/// DynamoDB already applied is recognized instead of applied again; a caller's own token is
/// left alone.
///
/// ```swift
/// var input = TransactWriteItemsInput(transactItems: items)
/// input[keyPath: TransactWriteItemsInput.idempotencyToken] = "order-1234"
/// ```
public protocol IdempotentOperationInput: DynamoOperationInput {
    /// The token member.
    static var idempotencyToken: WritableKeyPath<Self, String?> { get }
}
