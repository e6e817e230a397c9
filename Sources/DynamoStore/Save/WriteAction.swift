import DynamoAPI

/// One object's part of a save: the transaction action that stores it and what the context's
/// snapshot becomes when it succeeds.
struct WriteAction {
    enum Kind { case insert, update, delete }

    let object: ManagedObject
    let kind: Kind
    let action: TransactWriteItem
    /// The item the object's snapshot becomes once stored (`nil` for deletes).
    let storedItem: Item?
    /// Bytes the action adds to the request (for the 4 MB transaction limit).
    let size: Int

    init(object: ManagedObject, kind: Kind, action: TransactWriteItem, storedItem: Item?) {
        self.object = object
        self.kind = kind
        self.action = action
        self.storedItem = storedItem
        size = action.jsonBytes.count
    }
}

extension ExpressionBuilder {
    /// The names for a request, `nil` when there are none (DynamoDB rejects empty maps).
    var expressionNames: [String: String]? { names.isEmpty ? nil : names }
    /// The values for a request, `nil` when there are none.
    var expressionValues: [String: AttributeValue]? { values.isEmpty ? nil : values }
}

extension ObjectContext {
    /// The actions of a save, in dependency order: inserts (so references written next never
    /// point at a missing row), updates, then deletes (references to them are gone first).
    func planWrites() throws -> [WriteAction] {
        var inserts: [WriteAction] = [], updates: [WriteAction] = [], deletes: [WriteAction] = []
        for object in insertedList where !object.deleteMark {
            inserts.append(try insertAction(object))
        }
        for object in registered.values.sorted(by: { $0.objectID.description < $1.objectID.description })
        where object.lifecycle == .stored && !object.isDeletedInStore {
            if object.deleteMark {
                deletes.append(deleteAction(object))
            } else if let update = try updateAction(object) {
                updates.append(update)
            }
        }
        return inserts + updates + deletes
    }

    private func insertAction(_ object: ManagedObject) throws -> WriteAction {
        let entity = object.entity
        var item = currentItem(of: object)
        if let versionName = entity.versionStorageName {
            item[versionName] = .n(DynamoNumber(1))
        }
        var expression = ExpressionBuilder()
        let condition = "attribute_not_exists(\(expression.name(try entity.hashKeyStorageName)))"
        let put = Put(item: item, tableName: entity.tableName, conditionExpression: condition,
                      expressionAttributeNames: expression.expressionNames, returnValuesOnConditionCheckFailure: .allOld)
        return WriteAction(object: object, kind: .insert, action: TransactWriteItem(put: put), storedItem: item)
    }

    private func updateAction(_ object: ManagedObject) throws -> WriteAction? {
        let entity = object.entity
        let snapshotItem = try storedItem(of: object)
        let current = currentItem(of: object)
        var expression = ExpressionBuilder()
        var sets: [String] = [], removes: [String] = []
        let versionName = entity.versionStorageName
        let properties = entity.attributes.map(\.storageName) + entity.relationships.map(\.storageName)
        for name in properties where name != versionName && current[name] != snapshotItem[name] {
            if let value = current[name] {
                sets.append("\(expression.name(name)) = \(expression.value(value))")
            } else {
                removes.append(expression.name(name))
            }
        }
        guard !sets.isEmpty || !removes.isEmpty else { return nil }
        var item = current
        let condition = versionCondition(object, versionName: versionName, expression: &expression)
        if let versionName {
            let next = DynamoNumber(Int((object.snapshot?.version(of: entity) ?? 0) + 1))
            sets.append("\(expression.name(versionName)) = \(expression.value(.n(next)))")
            item[versionName] = .n(next)
        }
        let clauses = [("SET", sets), ("REMOVE", removes)].filter { !$0.1.isEmpty }
        let update = clauses.map { "\($0.0) \($0.1.joined(separator: ", "))" }.joined(separator: " ")
        let action = Update(
            key: object.objectID.key, updateExpression: update, tableName: entity.tableName,
            conditionExpression: condition, expressionAttributeNames: expression.expressionNames,
            expressionAttributeValues: expression.expressionValues, returnValuesOnConditionCheckFailure: .allOld)
        return WriteAction(object: object, kind: .update, action: TransactWriteItem(update: action), storedItem: item)
    }

    private func deleteAction(_ object: ManagedObject) -> WriteAction {
        let entity = object.entity
        var expression = ExpressionBuilder()
        let versionName = entity.versionStorageName
        let condition = versionCondition(object, versionName: versionName, expression: &expression)
        let delete = Delete(
            key: object.objectID.key, tableName: entity.tableName, conditionExpression: condition,
            expressionAttributeNames: expression.expressionNames,
            expressionAttributeValues: expression.expressionValues, returnValuesOnConditionCheckFailure: .allOld)
        return WriteAction(object: object, kind: .delete, action: TransactWriteItem(delete: delete), storedItem: nil)
    }

    /// The row still has the version the object read (or, without a version attribute, still
    /// exists).
    private func versionCondition(_ object: ManagedObject, versionName: String?, expression: inout ExpressionBuilder) -> String {
        let entity = object.entity
        if let versionName {
            let name = expression.name(versionName)
            guard let version = object.snapshot?.version(of: entity) else { return "attribute_not_exists(\(name))" }
            return "\(name) = \(expression.value(.n(DynamoNumber(Int(version)))))"
        }
        let key = (try? entity.hashKeyStorageName) ?? entity.hashKey
        return "attribute_exists(\(expression.name(key)))"
    }

    /// The item the object's snapshot describes (what the store held when it was read).
    func storedItem(of object: ManagedObject) throws -> Item {
        let entity = object.entity
        var item: Item = [:]
        guard let snapshot = object.snapshot else { return item }
        for attribute in entity.attributes {
            if let value = snapshot.attributes[attribute.name] { item[attribute.storageName] = value }
        }
        for relationship in entity.relationships {
            if let value = try relationshipValue(snapshot.relationships[relationship.name] ?? [], for: relationship, in: entity) {
                item[relationship.storageName] = value
            }
        }
        return item
    }
}
