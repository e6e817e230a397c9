/// TransactWriteItems bodies for the fast decoder's property test: the four kinds of action
/// with their members in random order and, with faults, actions of no kind or of two kinds,
/// members of another kind, too many or no actions, and tokens of a wrong length.
extension RequestBodyGenerator {
    mutating func transactWriteItems() -> String {
        let upper = fault() ? 102 : 6
        let count = Int.random(in: (fault() ? 0 : 1)...upper, using: &random)
        let actions = (0..<count).map { _ in transactAction() }
        var tokens = ["\"t\"", "\"" + String(repeating: "k", count: 36) + "\"", "\"é😀-token\"", stringLiteral(maxLength: 6)]
        if fault() { tokens += ["\"\"", "\"" + String(repeating: "k", count: 37) + "\"", "\"" + String(repeating: "😀", count: 19) + "\""] }
        return object(
            ["\"TransactItems\":[" + actions.joined(separator: "," + space()) + "]"],
            [
                "\"ReturnConsumedCapacity\":" + enumLiteral(["TOTAL", "INDEXES", "NONE"]),
                "\"ReturnItemCollectionMetrics\":" + enumLiteral(["SIZE", "NONE"]),
                "\"ClientRequestToken\":" + pick(tokens),
            ])
    }

    /// One action object: usually one kind, with faults none, two, or an unknown one.
    mutating func transactAction() -> String {
        let kinds = ["Put", "Delete", "ConditionCheck", "Update"]
        let kind = pick(kinds)
        var members = ["\"" + kind + "\":" + actionBody(kind)]
        if fault() {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: members = []
            case 1: members.append("\"" + pick(kinds) + "\":" + actionBody(pick(kinds)))
            case 2: members = ["\"" + pick(["Get", "put", "PutRequest"]) + "\":" + actionBody("Put")]
            default: members = ["\"" + pick(kinds) + "\":" + pick(["null", "{}", "[]", "1"])]
            }
        }
        return "{" + space() + members.joined(separator: ",") + space() + "}"
    }

    /// The object of one action of `kind` (at times, with faults, another kind's members).
    mutating func actionBody(_ kind: String) -> String {
        let memberKind = fault() ? pick(["Put", "Delete", "ConditionCheck", "Update"]) : kind
        var required = ["\"TableName\":" + tableName()]
        required.append((memberKind == "Put" ? "\"Item\":" : "\"Key\":") + attributeMap())
        var optional = [
            "\"ExpressionAttributeNames\":{\"#a\":\"a\",\"#b\":" + stringLiteral() + "}",
            "\"ExpressionAttributeValues\":{\":v\":" + attributeValue() + "}",
            "\"ReturnValuesOnConditionCheckFailure\":" + enumLiteral(["ALL_OLD", "NONE"]),
        ]
        let condition = "\"ConditionExpression\":" + stringLiteral()
        switch memberKind {
        case "ConditionCheck": required.append(condition)
        case "Update":
            required.append("\"UpdateExpression\":" + stringLiteral())
            optional.append(condition)
        default: optional.append(condition)
        }
        return object(required, optional)
    }
}
