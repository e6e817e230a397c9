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
            }
            return try reader.conditionalWriteMember(name, into: &input)
        }
        guard let tableName, let key else { throw FastDecodeBail() }
        input.tableName = tableName
        input.key = key
        return input
    }

}

/// The members PutItem and UpdateItem share besides the table and the item or key.
protocol ConditionalWriteInput {
    var conditionExpression: String? { get set }
    var expressionAttributeNames: [String: String]? { get set }
    var expressionAttributeValues: [String: AttributeValue]? { get set }
    var returnValues: ReturnValue? { get set }
    var returnConsumedCapacity: ReturnConsumedCapacity? { get set }
    var returnItemCollectionMetrics: ReturnItemCollectionMetrics? { get set }
    var returnValuesOnConditionCheckFailure: ReturnValuesOnConditionCheckFailure? { get set }
}

extension PutItemInput: ConditionalWriteInput {}
extension UpdateItemInput: ConditionalWriteInput {}

extension JSONByteReader {
    /// Reads one of the ``ConditionalWriteInput`` members into `input` and returns its bit (bits
    /// 4 to 10; the shape's own members use the lower ones); bails on any other member.
    mutating func conditionalWriteMember<Input: ConditionalWriteInput>(
        _ name: UnsafeRawBufferPointer, into input: inout Input
    ) throws(FastDecodeBail) -> UInt32 {
        if name.spells("ConditionExpression") {
            input.conditionExpression = try string()
            return 1 << 4
        } else if name.spells("ExpressionAttributeNames") {
            input.expressionAttributeNames = try stringMap()
            return 1 << 5
        } else if name.spells("ExpressionAttributeValues") {
            input.expressionAttributeValues = try attributeMap()
            return 1 << 6
        } else if name.spells("ReturnValues") {
            input.returnValues = try knownEnum(ReturnValue.self)
            return 1 << 7
        } else if name.spells("ReturnConsumedCapacity") {
            input.returnConsumedCapacity = try knownEnum(ReturnConsumedCapacity.self)
            return 1 << 8
        } else if name.spells("ReturnItemCollectionMetrics") {
            input.returnItemCollectionMetrics = try knownEnum(ReturnItemCollectionMetrics.self)
            return 1 << 9
        } else if name.spells("ReturnValuesOnConditionCheckFailure") {
            input.returnValuesOnConditionCheckFailure = try knownEnum(ReturnValuesOnConditionCheckFailure.self)
            return 1 << 10
        }
        throw FastDecodeBail()
    }
}
