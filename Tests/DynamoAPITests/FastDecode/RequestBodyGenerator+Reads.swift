// Random GetItem and Query bodies for the fast decoder's property test of the read shapes.

extension RequestBodyGenerator {
    mutating func booleanLiteral() -> String {
        fault() ? pick(["\"true\"", "1", "null", "tru"]) : pick(["true", "false"])
    }

    /// `Limit`: plain digits; with a fault, a form the generic decoder refuses, truncates or
    /// reads differently (a sign, a fraction, an exponent, out of range, a string).
    mutating func limitLiteral() -> String {
        var options = ["1", "10", "25", "2147483647", "999"]
        if fault() { options = ["0", "-1", "2147483648", "1.5", "1e2", "01", "10.0", "\"10\"", "99999999999", "-0", "1E1"] }
        return pick(options)
    }

    mutating func attributeNameList() -> String {
        if fault() { return pick(["[]", "[null]", "[\"a\",null]", "\"a\""]) }
        return list({ $0.stringLiteral(maxLength: 4) }, count: 1...3)
    }

    mutating func indexNameLiteral() -> String {
        var names = ["by_n", "gsi-1", "abc", "Index.2"]
        if fault() { names += ["ab", "", "a b", String(repeating: "i", count: 256), "é12"] }
        return "\"" + pick(names) + "\""
    }

    /// A legacy `Condition`: its two members in random order; with a fault, one missing, one
    /// repeated, an unknown one or a `null`.
    mutating func condition() -> String {
        var members = [
            "\"ComparisonOperator\":"
                + enumLiteral(["EQ", "NE", "LE", "LT", "GE", "GT", "BETWEEN", "BEGINS_WITH", "IN", "NULL", "CONTAINS"])
        ]
        if chance(0.9) {
            members.append("\"AttributeValueList\":" + list({ $0.attributeValue() }, count: 0...2))
        }
        if fault() {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: members.removeFirst()
            case 1: members.append(members[0])
            case 2: members.append("\"Exists\":true")
            default: members.append("\"AttributeValueList\":null")
            }
        }
        members.shuffle(using: &random)
        return "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}"
    }

    mutating func keyConditions() -> String {
        var members: [String] = []
        for index in 0..<Int.random(in: 0...2, using: &random) {
            members.append(attributeName(index) + ":" + condition())
        }
        if fault(), let first = members.first { members.append(first) }
        return "{" + members.joined(separator: "," + space()) + "}"
    }

    mutating func getItem() -> String {
        object(
            ["\"TableName\":" + tableName(), "\"Key\":" + attributeMap()],
            [
                "\"ConsistentRead\":" + booleanLiteral(),
                "\"ProjectionExpression\":" + stringLiteral(),
                "\"ExpressionAttributeNames\":{\"#a\":\"a\",\"#b\":" + stringLiteral() + "}",
                "\"ReturnConsumedCapacity\":" + enumLiteral(["TOTAL", "INDEXES", "NONE"]),
                "\"AttributesToGet\":" + attributeNameList(),
            ])
    }

    mutating func query() -> String {
        object(
            ["\"TableName\":" + tableName()],
            [
                "\"KeyConditionExpression\":" + stringLiteral(),
                "\"KeyConditions\":" + keyConditions(),
                "\"ExpressionAttributeNames\":{\"#k\":" + stringLiteral() + "}",
                "\"ExpressionAttributeValues\":" + attributeMap(),
                "\"Limit\":" + limitLiteral(),
                "\"ExclusiveStartKey\":" + attributeMap(),
                "\"ScanIndexForward\":" + booleanLiteral(),
                "\"ConsistentRead\":" + booleanLiteral(),
                "\"Select\":" + enumLiteral(["ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT"]),
                "\"ProjectionExpression\":" + stringLiteral(),
                "\"FilterExpression\":" + stringLiteral(),
                "\"IndexName\":" + indexNameLiteral(),
                "\"ReturnConsumedCapacity\":" + enumLiteral(["TOTAL", "INDEXES", "NONE"]),
                "\"AttributesToGet\":" + attributeNameList(),
            ])
    }
}
