// The TransactWriteItems reader of `RequestFastDecoder`: the four kinds of action, each with its
// members in any order, under the rules of the other shape readers (bail on anything the
// generated decoder would report or that is not repeated here).

extension JSONByteReader {
    /// TransactWriteItems: `TransactItems` of 1...100 actions, each an object with exactly one
    /// of `ConditionCheck`, `Put`, `Delete` or `Update`; the return options and a
    /// `ClientRequestToken` of 1...36 UTF-16 units optional.
    mutating func transactWriteItems() throws(FastDecodeBail) -> TransactWriteItemsInput {
        var transactItems: [TransactWriteItem]?
        var input = TransactWriteItemsInput(transactItems: [])
        try topLevelObject { (reader, name) throws(FastDecodeBail) in
            if name.spells("TransactItems") {
                transactItems = try reader.transactItems()
                return 1 << 0
            } else if name.spells("ReturnConsumedCapacity") {
                input.returnConsumedCapacity = try reader.knownEnum(ReturnConsumedCapacity.self)
                return 1 << 1
            } else if name.spells("ReturnItemCollectionMetrics") {
                input.returnItemCollectionMetrics = try reader.knownEnum(ReturnItemCollectionMetrics.self)
                return 1 << 2
            } else if name.spells("ClientRequestToken") {
                let token = try reader.string()
                guard (1...36).contains(token.utf16.count) else { throw FastDecodeBail() }
                input.clientRequestToken = token
                return 1 << 3
            }
            throw FastDecodeBail()
        }
        guard let transactItems else { throw FastDecodeBail() }
        input.transactItems = transactItems
        return input
    }

    private mutating func transactItems() throws(FastDecodeBail) -> [TransactWriteItem] {
        try expect(UInt8(ascii: "["))
        var items: [TransactWriteItem] = []
        repeat {
            items.append(try transactWriteItem())
            guard items.count <= 100 else { throw FastDecodeBail() }
        } while try continues(before: UInt8(ascii: "]"))
        return items
    }

    /// One action: an object whose one member names its kind. More than one kind, or none, is
    /// left to the generic path (the engine words those).
    private mutating func transactWriteItem() throws(FastDecodeBail) -> TransactWriteItem {
        try expect(UInt8(ascii: "{"))
        let kind = try rawToken()
        try expect(UInt8(ascii: ":"))
        var item = TransactWriteItem()
        if kind.spells("Put") {
            let action = try actionMembers(.put)
            guard let members = action.item else { throw FastDecodeBail() }
            item.put = Put(
                item: members, tableName: action.tableName, conditionExpression: action.conditionExpression,
                expressionAttributeNames: action.names, expressionAttributeValues: action.values,
                returnValuesOnConditionCheckFailure: action.returnValuesOnConditionCheckFailure)
        } else if kind.spells("Delete") {
            let action = try actionMembers(.delete)
            guard let key = action.key else { throw FastDecodeBail() }
            item.delete = Delete(
                key: key, tableName: action.tableName, conditionExpression: action.conditionExpression,
                expressionAttributeNames: action.names, expressionAttributeValues: action.values,
                returnValuesOnConditionCheckFailure: action.returnValuesOnConditionCheckFailure)
        } else if kind.spells("ConditionCheck") {
            let action = try actionMembers(.conditionCheck)
            guard let key = action.key, let condition = action.conditionExpression else { throw FastDecodeBail() }
            item.conditionCheck = ConditionCheck(
                key: key, tableName: action.tableName, conditionExpression: condition,
                expressionAttributeNames: action.names, expressionAttributeValues: action.values,
                returnValuesOnConditionCheckFailure: action.returnValuesOnConditionCheckFailure)
        } else if kind.spells("Update") {
            let action = try actionMembers(.update)
            guard let key = action.key, let update = action.updateExpression else { throw FastDecodeBail() }
            item.update = Update(
                key: key, updateExpression: update, tableName: action.tableName,
                conditionExpression: action.conditionExpression, expressionAttributeNames: action.names,
                expressionAttributeValues: action.values,
                returnValuesOnConditionCheckFailure: action.returnValuesOnConditionCheckFailure)
        } else {
            throw FastDecodeBail()
        }
        try expect(UInt8(ascii: "}"))
        return item
    }

    /// Which action an object describes, for the members it may hold.
    private enum ActionKind {
        case conditionCheck, put, delete, update
    }

    /// The members of any action kind; `tableName` is required of every kind, the others are
    /// checked by the caller.
    private struct ActionMembers {
        var tableName = ""
        var item: [String: AttributeValue]?
        var key: [String: AttributeValue]?
        var updateExpression: String?
        var conditionExpression: String?
        var names: [String: String]?
        var values: [String: AttributeValue]?
        var returnValuesOnConditionCheckFailure: ReturnValuesOnConditionCheckFailure?
    }

    /// Reads an action's object: `Item` only for a Put, `Key` for the others, `UpdateExpression`
    /// only for an Update; any other name bails.
    private mutating func actionMembers(_ kind: ActionKind) throws(FastDecodeBail) -> ActionMembers {
        var action = ActionMembers()
        var hasTableName = false
        try objectMembers { (reader, name) throws(FastDecodeBail) in
            if name.spells("TableName") {
                action.tableName = try reader.tableName()
                hasTableName = true
                return 1 << 0
            } else if name.spells("Item"), kind == .put {
                action.item = try reader.attributeMap()
                return 1 << 1
            } else if name.spells("Key"), kind != .put {
                action.key = try reader.attributeMap()
                return 1 << 1
            } else if name.spells("UpdateExpression"), kind == .update {
                action.updateExpression = try reader.string()
                return 1 << 2
            } else if name.spells("ConditionExpression") {
                action.conditionExpression = try reader.string()
                return 1 << 3
            } else if name.spells("ExpressionAttributeNames") {
                action.names = try reader.stringMap()
                return 1 << 4
            } else if name.spells("ExpressionAttributeValues") {
                action.values = try reader.attributeMap()
                return 1 << 5
            } else if name.spells("ReturnValuesOnConditionCheckFailure") {
                action.returnValuesOnConditionCheckFailure = try reader.knownEnum(
                    ReturnValuesOnConditionCheckFailure.self)
                return 1 << 6
            }
            throw FastDecodeBail()
        }
        guard hasTableName else { throw FastDecodeBail() }
        return action
    }
}
