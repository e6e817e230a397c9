extension RequestBodyGenerator {
    /// An UpdateItem body: `TableName` and `Key`, and at random the expressions (UpdateExpression
    /// text from a small pool, so some bodies repeat one), their maps and the return options; with
    /// faults, the legacy members too.
    mutating func updateItem() -> String {
        var optional = [
            "\"UpdateExpression\":" + (chance(0.5) ? pick(["\"SET #a = :v\"", "\"ADD #b :v\"", "\"REMOVE x\""]) : stringLiteral()),
            "\"ConditionExpression\":" + stringLiteral(),
            "\"ExpressionAttributeNames\":{\"#a\":\"a\",\"#b\":" + stringLiteral() + "}",
            "\"ExpressionAttributeValues\":{\":v\":" + attributeValue() + "}",
            "\"ReturnValues\":" + enumLiteral(["NONE", "ALL_OLD", "ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"]),
            "\"ReturnConsumedCapacity\":" + enumLiteral(["TOTAL", "INDEXES", "NONE"]),
            "\"ReturnItemCollectionMetrics\":" + enumLiteral(["SIZE", "NONE"]),
            "\"ReturnValuesOnConditionCheckFailure\":" + enumLiteral(["ALL_OLD", "NONE"]),
        ]
        if fault() {
            optional.append(
                pick([
                    "\"AttributeUpdates\":{\"a\":{\"Action\":\"PUT\",\"Value\":{\"S\":\"x\"}}}",
                    "\"Expected\":{\"a\":{\"Exists\":false}}", "\"ConditionalOperator\":\"OR\"",
                    "\"ReturnValues\":\"UPDATE_NEW\"",
                ]))
        }
        return object(["\"TableName\":" + tableName(), "\"Key\":" + attributeMap()], optional)
    }
}
