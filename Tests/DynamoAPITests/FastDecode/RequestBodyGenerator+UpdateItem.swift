extension RequestBodyGenerator {
    /// An UpdateItem body: `TableName` and `Key`, and at random the expressions (UpdateExpression
    /// text from a small pool, so some bodies repeat one), their maps and the return options; with
    /// faults, the legacy members too.
    mutating func updateItem() -> String {
        let expression = chance(0.5) ? pick(["\"SET #a = :v\"", "\"ADD #b :v\"", "\"REMOVE x\""]) : stringLiteral()
        var optional = ["\"UpdateExpression\":" + expression] + conditionalWriteOptions()
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
