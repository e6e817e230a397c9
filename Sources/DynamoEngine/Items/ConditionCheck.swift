import DynamoAPI
import DynamoExpressions

/// A write's condition (ConditionExpression or `Expected`), checked inside the write transaction
/// against the item as stored.
struct ConditionCheck {
    let predicate: Predicate?
    /// Whether a failure returns the stored item (`ReturnValuesOnConditionCheckFailure=ALL_OLD`).
    let returnsItem: Bool

    init(_ predicate: Predicate?, returnOnFailure: ReturnValuesOnConditionCheckFailure?) {
        self.predicate = predicate
        self.returnsItem = returnOnFailure == .allOld
    }

    /// Whether the stored item must be decoded to check the condition.
    var needsItem: Bool { predicate != nil }

    /// Throws `ConditionalCheckFailedException` "The conditional request failed" (with the
    /// stored item when asked for) if the condition does not hold for `item` (`nil`: no item).
    func verify(_ item: Item?) throws(DynamoError) {
        guard let predicate, !predicate.evaluate(item ?? [:]) else { return }
        throw EngineMessages.conditionalRequestFailed(returnsItem: returnsItem, item: item)
    }
}
