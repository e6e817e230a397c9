import DynamoAPI

/// DynamoDB's messages about which expression parameters a request may combine, word for word:
/// each sentence once.
enum ParameterMessages {
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
    /// names the missing expressions (`: KeyConditionExpression and FilterExpression are null`),
    /// DynamoDB's 2026 validator does not (pass no `nullParameters`).
    static func valuesWithoutExpressions(nullParameters: [String]) -> DynamoError {
        let sentence = "ExpressionAttributeValues can only be specified when using expressions"
        guard !nullParameters.isEmpty else { return .validation(sentence) }
        let verb = nullParameters.count > 1 ? "are" : "is"
        return .validation("\(sentence): \(nullParameters.joined(separator: " and ")) \(verb) null")
    }
}
