import DynamoAPI
import DynamoClient

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
    /// A deleted object of the same key that this insert's `Put` replaces (delete and insert
    /// of one key in one save are one write: a transaction cannot touch an item twice).
    var replaced: ManagedObject?

    init(object: ManagedObject, kind: Kind, action: TransactWriteItem, storedItem: Item?) {
        self.object = object
        self.kind = kind
        self.action = action
        self.storedItem = storedItem
        size = action.jsonBytes.count
    }
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
                deletes.append(try deleteAction(object))
            } else if let update = try updateAction(object) {
                updates.append(update)
            }
        }
        // A key deleted and inserted again in one save is one Put over the row as read.
        var deletesByID: [ObjectID: Int] = [:]
        for (position, delete) in deletes.enumerated() { deletesByID[delete.object.objectID] = position }
        var replacedPositions: Set<Int> = []
        for (position, insert) in inserts.enumerated() {
            guard let deletePosition = deletesByID[insert.object.objectID] else { continue }
            inserts[position] = try replaceAction(insert.object, replacing: deletes[deletePosition].object)
            replacedPositions.insert(deletePosition)
        }
        deletes = deletes.enumerated().filter { !replacedPositions.contains($0.offset) }.map(\.element)
        return inserts + updates + deletes
    }

    /// The `Put` of a new object over the row of a deleted one with the same key, on the
    /// condition that the row is still as the deleted object read it.
    private func replaceAction(_ object: ManagedObject, replacing old: ManagedObject) throws -> WriteAction {
        let entity = object.entity
        var item = currentItem(of: object)
        let versionName = entity.versionStorageName
        let condition = versionCondition(old, versionName: versionName)
        if let versionName {
            item[versionName] = .n(DynamoNumber(Int((old.snapshot?.version(of: entity) ?? 0) + 1)))
        }
        let put = try Put(item: item, tableName: entity.tableName, returnValuesOnConditionCheckFailure: .allOld)
            .with(Expressions(condition: condition))
        var action = WriteAction(object: object, kind: .insert, action: TransactWriteItem(put: put), storedItem: item)
        action.replaced = old
        return action
    }

    private func insertAction(_ object: ManagedObject) throws -> WriteAction {
        let entity = object.entity
        var item = currentItem(of: object)
        if let versionName = entity.versionStorageName {
            item[versionName] = .n(DynamoNumber(1))
        }
        let put = try Put(item: item, tableName: entity.tableName, returnValuesOnConditionCheckFailure: .allOld)
            .with(Expressions(condition: .attributeNotExists(.name(try entity.hashKeyStorageName))))
        return WriteAction(object: object, kind: .insert, action: TransactWriteItem(put: put), storedItem: item)
    }

    /// An update that sends only what changed: `SET`/`REMOVE` of attributes and to-one
    /// relationships (guarded by the version read), and to-many relationships as deltas
    /// (`ADD`/`DELETE` on the stored set, unguarded, so concurrent additions to one set both
    /// succeed). A to-many change that both adds and removes is one `SET` of the whole set
    /// (an update expression names an attribute once), on the condition that the stored set
    /// is still the one read.
    private func updateAction(_ object: ManagedObject) throws -> WriteAction? {
        let entity = object.entity
        let snapshotItem = try storedItem(of: object)
        let current = currentItem(of: object)
        var update = UpdateExpression()
        var setConditions: [ConditionExpression] = []
        var guarded = false
        let versionName = entity.versionStorageName
        for name in entity.attributes.map(\.storageName) where name != versionName && current[name] != snapshotItem[name] {
            guarded = true
            update = current[name].map { update.set(.name(name), .value($0)) } ?? update.remove(.name(name))
        }
        for relationship in entity.relationships where current[relationship.storageName] != snapshotItem[relationship.storageName] {
            let name = relationship.storageName
            if relationship.isToMany {
                let stored = object.snapshot?.relationships[relationship.name] ?? []
                let now = currentIDs(of: object, relationship.name)
                let added = now.subtracting(stored), removed = stored.subtracting(now)
                if removed.isEmpty, let value = try relationshipValue(added, for: relationship, in: entity) {
                    update = update.add(.name(name), value)
                    continue
                }
                if added.isEmpty, let value = try relationshipValue(removed, for: relationship, in: entity) {
                    update = update.delete(.name(name), value)
                    continue
                }
                if let condition = try unchangedSet(stored, of: relationship, in: entity) {
                    setConditions.append(condition)
                } else {
                    guarded = true
                }
            } else {
                guarded = true
            }
            update = current[name].map { update.set(.name(name), .value($0)) } ?? update.remove(.name(name))
        }
        guard !update.isEmpty else { return nil }
        var item = current
        var conditions = setConditions
        if guarded {
            conditions.insert(versionCondition(object, versionName: versionName), at: 0)
            if let versionName {
                let next = DynamoNumber(Int((object.snapshot?.version(of: entity) ?? 0) + 1))
                update = update.set(.name(versionName), .value(.n(next)))
                item[versionName] = .n(next)
            }
        } else {
            conditions.insert(.attributeExists(.name(try entity.hashKeyStorageName)), at: 0)
        }
        var action = try Update(key: object.objectID.key, tableName: entity.tableName, update: update,
                                condition: ConditionExpression.all(conditions))
        action.returnValuesOnConditionCheckFailure = .allOld
        return WriteAction(object: object, kind: .update, action: TransactWriteItem(update: action), storedItem: item)
    }

    /// The condition that a to-many relationship's stored set is exactly `ids` (its size and
    /// each member), or `nil` when the set is too large for a condition expression (the
    /// version guards it then).
    private func unchangedSet(_ ids: Set<ObjectID>, of relationship: RelationshipDescription,
                              in entity: EntityDescription) throws -> ConditionExpression? {
        let name = AttributePath.name(relationship.storageName)
        guard !ids.isEmpty else { return .attributeNotExists(name) }
        guard ids.count <= 50 else { return nil }
        let keyName = try store.model.destination(of: relationship, in: entity).hashKeyStorageName
        var parts = [ConditionExpression.size(name) == .value(.n(DynamoNumber(ids.count)))]
        for id in ids.sorted(by: { $0.description < $1.description }) {
            guard let key = id.key[keyName] else { continue }
            parts.append(.contains(name, .value(key)))
        }
        return ConditionExpression.all(parts)
    }

    private func deleteAction(_ object: ManagedObject) throws -> WriteAction {
        let entity = object.entity
        let condition = versionCondition(object, versionName: entity.versionStorageName)
        let delete = try Delete(key: object.objectID.key, tableName: entity.tableName, returnValuesOnConditionCheckFailure: .allOld)
            .with(Expressions(condition: condition))
        return WriteAction(object: object, kind: .delete, action: TransactWriteItem(delete: delete), storedItem: nil)
    }

    /// The row still has the version the object read (or, without a version attribute, still
    /// exists).
    private func versionCondition(_ object: ManagedObject, versionName: String?) -> ConditionExpression {
        let entity = object.entity
        if let versionName {
            guard let version = object.snapshot?.version(of: entity) else { return .attributeNotExists(.name(versionName)) }
            return ConditionExpression.attribute(.name(versionName)) == .value(.n(DynamoNumber(Int(version))))
        }
        let key = (try? entity.hashKeyStorageName) ?? entity.hashKey
        return .attributeExists(.name(key))
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
