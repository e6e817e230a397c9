// UpdateItem's reader for `RequestFastDecoder`: the members the generated decoder checks, with the
// same bail rules as PutItem's (see JSONByteReader+Shapes.swift).

extension JSONByteReader {
    /// UpdateItem: `TableName` and `Key` required; the expressions, their placeholder maps and the
    /// return options optional. `AttributeUpdates`, `Expected` and `ConditionalOperator` go the
    /// generic way.
    mutating func updateItem() throws(FastDecodeBail) -> UpdateItemInput {
        var tableName: String?
        var key: [String: AttributeValue]?
        var input = UpdateItemInput(tableName: "", key: [:])
        try topLevelObject { (reader, name) throws(FastDecodeBail) in
            if name.spells("TableName") {
                tableName = try reader.tableName()
                return 1 << 0
            } else if name.spells("Key") {
                key = try reader.attributeMap()
                return 1 << 1
            } else if name.spells("UpdateExpression") {
                input.updateExpression = try reader.string()
                return 1 << 2
            } else if name.spells("ConditionExpression") {
                input.conditionExpression = try reader.string()
                return 1 << 3
            } else if name.spells("ExpressionAttributeNames") {
                input.expressionAttributeNames = try reader.stringMap()
                return 1 << 4
            } else if name.spells("ExpressionAttributeValues") {
                input.expressionAttributeValues = try reader.attributeMap()
                return 1 << 5
            } else if name.spells("ReturnValues") {
                input.returnValues = try reader.knownEnum(ReturnValue.self)
                return 1 << 6
            } else if name.spells("ReturnConsumedCapacity") {
                input.returnConsumedCapacity = try reader.knownEnum(ReturnConsumedCapacity.self)
                return 1 << 7
            } else if name.spells("ReturnItemCollectionMetrics") {
                input.returnItemCollectionMetrics = try reader.knownEnum(ReturnItemCollectionMetrics.self)
                return 1 << 8
            } else if name.spells("ReturnValuesOnConditionCheckFailure") {
                input.returnValuesOnConditionCheckFailure = try reader.knownEnum(ReturnValuesOnConditionCheckFailure.self)
                return 1 << 9
            }
            throw FastDecodeBail()
        }
        guard let tableName, let key else { throw FastDecodeBail() }
        input.tableName = tableName
        input.key = key
        return input
    }

}
