import DynamoAPI

/// DynamoDB's messages about which expression parameters a request may combine, word for word:
/// each sentence once.
package enum ParameterMessages {
    /// Expression and legacy parameters in one request.
    static func mixed(legacy: [String], expressions: [String]) -> DynamoError {
        .validation(
            "Can not use both expression and non-expression parameters in the same request: "
                + "Non-expression parameters: {\(legacy.joined(separator: ", "))} "
                + "Expression parameters: {\(expressions.joined(separator: ", "))}")
    }

    /// `ExpressionAttributeNames` without an expression.
    static let namesWithoutExpressions =
        DynamoError.validation("ExpressionAttributeNames can only be specified when using expressions")

    /// `ExpressionAttributeValues` without an expression that takes values: the older validator
    /// names the missing expressions (`: KeyConditionExpression and FilterExpression are null`);
    /// DynamoDB's 2026 validator of PutItem, UpdateItem and DeleteItem (`rewordedIn2026`) does
    /// not, so there the message has two forms (``ErrorWording``).
    static func valuesWithoutExpressions(nullParameters: [String], rewordedIn2026: Bool) -> DynamoError {
        let sentence = "ExpressionAttributeValues can only be specified when using expressions"
        let verb = nullParameters.count > 1 ? "are" : "is"
        let named = "\(sentence): \(nullParameters.joined(separator: " and ")) \(verb) null"
        return rewordedIn2026 ? .validation(sentence, v2025: named) : .validation(named)
    }

    /// Examples of every message here that DynamoDB's 2026 rollout changed, in both forms (the
    /// catalog test checks each has two).
    package static var rolloutSamples: [DynamoError] {
        [valuesWithoutExpressions(nullParameters: ["ConditionExpression"], rewordedIn2026: true)]
    }
}
