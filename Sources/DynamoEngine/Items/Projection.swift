import DynamoAPI

/// Legacy `AttributesToGet` projections and item encoding.
enum Projection {
    /// DynamoDB rejects a repeated name in `AttributesToGet`.
    static func checkUnique(_ names: [String]) throws(DynamoError) {
        if Set(names).count != names.count {
            throw DynamoError.validation(
                "One or more parameter values were invalid: Duplicate value in attribute name: \(names.first { name in names.filter { $0 == name }.count > 1 }!)")
        }
    }

    /// The named top-level attributes of an item (missing ones are skipped).
    static func apply(_ names: [String], to item: Item) -> Item {
        var projected = Item(minimumCapacity: names.count)
        for name in names { projected[name] = item[name] }
        return projected
    }

    /// An item's wire JSON.
    static func encode(_ item: Item) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        AttributeValue.encode(item: item, to: &writer)
        return writer.bytes
    }
}

/// The seam where the expression language plugs in. Until it does, requests that use
/// expressions or legacy conditions are refused explicitly rather than silently ignored.
enum ExpressionSupport {
    static func rejectUnsupported(
        condition: String? = nil, expected: [String: ExpectedAttributeValue]? = nil,
        projection: String? = nil, names: [String: String]?, values: [String: AttributeValue]?,
        update: String? = nil
    ) throws(DynamoError) {
        let used = [("ConditionExpression", condition), ("ProjectionExpression", projection),
                    ("UpdateExpression", update)].filter { $0.1 != nil }.map(\.0)
            + (expected == nil ? [] : ["Expected"])
        if !used.isEmpty {
            throw DynamoError.validation("\(used.joined(separator: ", ")) is not supported by this server yet")
        }
        if names != nil {
            throw DynamoError.validation("ExpressionAttributeNames can only be specified when using expressions")
        }
        if values != nil {
            throw DynamoError.validation("ExpressionAttributeValues can only be specified when using expressions")
        }
    }
}
