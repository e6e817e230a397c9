import DynamoAPI
import DynamoClient
import Foundation

/// One object's part of a save: the transaction action that stores it and what the context's
/// snapshot becomes when it succeeds.
struct WriteAction {
    /// `check`: a `ConditionCheck` of an object that writes nothing itself, whose stored
    /// relationship must be what another object's link change requires.
    enum Kind { case insert, update, delete, check }

    let object: ManagedObject
    let kind: Kind
    let action: TransactWriteItem
    /// The item the object's snapshot becomes once stored (`nil` for deletes).
    let storedItem: Item?
    /// The action as JSON, encoded once: it sizes the action and is what the transaction's
    /// request carries.
    let json: [UInt8]
    /// Bytes the action adds to the request (for the 4 MB transaction limit).
    var size: Int { json.count }
    /// A deleted object of the same key that this insert's `Put` replaces (delete and insert
    /// of one key in one save are one write: a transaction cannot touch an item twice).
    var replaced: ManagedObject?
    /// The objects whose links this action writes or checks with this one: both sides go in
    /// one transaction.
    var partners: Set<ObjectID> = []
    /// Whether the action writes the migration of an object read in an older model version.
    var migrates = false
    /// For the check of a destination that writes nothing itself: the objects that add it to
    /// a to-many relationship (by relationship name), which drop it again when the check fails.
    var addedBy: [(object: ManagedObject, relationship: String)] = []

    init(object: ManagedObject, kind: Kind, action: TransactWriteItem, storedItem: Item?) {
        self.object = object
        self.kind = kind
        self.action = action
        self.storedItem = storedItem
        json = action.jsonBytes
    }
}

extension ObjectContext {
    /// The actions of a save, in dependency order: inserts (so references written next never
    /// point at a missing row), updates, then deletes (references to them are gone first).
    func planWrites() throws -> [WriteAction] {
        let links = LinkIntents(self)
        var inserts: [WriteAction] = [], updates: [WriteAction] = [], deletes: [WriteAction] = []
        for object in insertedList where !object.deleteMark {
            inserts.append(try insertAction(object))
        }
        for object in registered.values.sorted(by: { $0.objectID.description < $1.objectID.description })
        where object.lifecycle == .stored && !object.isDeletedInStore {
            if object.deleteMark {
                deletes.append(try deleteAction(object))
            } else if let update = try updateAction(object, links: links) {
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
        let writes = inserts + updates + deletes
        return (writes + (try addedDestinationChecks(writes, links: links))).map { action in
            var action = action
            action.partners = links.partners(of: action.object.objectID)
            return action
        }
    }

    /// `ConditionCheck`s of the destinations that objects of the save add to a to-many
    /// relationship with an inverse but that write nothing themselves (a destination this
    /// context found gone while saving, say): the row must exist and its inverse must name each
    /// object that adds it, as a partner's check of a to-one does. Every other destination is
    /// guarded by its own action (its insert, its update's condition or its check).
    private func addedDestinationChecks(_ writes: [WriteAction], links: LinkIntents) throws -> [WriteAction] {
        guard !links.objectIDs.isEmpty else { return [] }
        let written = Set(writes.map(\.object.objectID))
        var checks: [ObjectID: (destination: ManagedObject, conditions: [ConditionExpression], addedBy: [(ManagedObject, String)])] = [:]
        var order: [ObjectID] = []
        for write in writes where write.kind == .insert || write.kind == .update {
            let object = write.object
            guard !object.isFault else { continue }
            for relationship in object.entity.relationships where relationship.isToMany {
                guard let inverseName = relationship.inverse, case .objects(let destinations)? = object.pending[relationship.name] else { continue }
                let intents = links.links(of: object.objectID, relationship.name)
                for destination in destinations where intents[destination.objectID] == true && !written.contains(destination.objectID) {
                    guard let inverse = destination.entity.relationship(named: inverseName),
                        let key = object.objectID.key[try object.entity.hashKeyStorageName]
                    else { continue }
                    let path = AttributePath.name(inverse.storageName)
                    let names =
                        inverse.isToMany ? ConditionExpression.contains(path, .value(key)) : ConditionExpression.attribute(path) == .value(key)
                    let id = destination.objectID
                    if checks[id] == nil {
                        order.append(id)
                        checks[id] = (destination, [.attributeExists(.name(try destination.entity.hashKeyStorageName))], [])
                    }
                    checks[id]?.conditions.append(names)
                    checks[id]?.addedBy.append((object, relationship.name))
                }
            }
        }
        return try order.compactMap { id -> WriteAction? in
            guard let (destination, conditions, addedBy) = checks[id], let condition = ConditionExpression.all(conditions) else { return nil }
            var check = try ConditionCheck(key: id.key, tableName: destination.entity.tableName, condition: condition)
            check.returnValuesOnConditionCheckFailure = .allOld
            var action = WriteAction(object: destination, kind: .check, action: TransactWriteItem(conditionCheck: check), storedItem: nil)
            action.addedBy = addedBy
            return action
        }
    }

    /// The `Put` of a new object over the row of a deleted one with the same key, on the
    /// condition that the row is still as the deleted object read it.
    private func replaceAction(_ object: ManagedObject, replacing old: ManagedObject) throws -> WriteAction {
        let entity = object.entity
        var item = currentItem(of: object)
        stampVersion(&item)
        let versionName = entity.versionStorageName
        let condition = ConditionExpression.all(try removalConditions(old))
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
        stampVersion(&item)
        if let versionName = entity.versionStorageName {
            item[versionName] = .n(DynamoNumber(1))
        }
        // A tombstone is no row: an insert may take its key.
        var condition = ConditionExpression.attributeNotExists(.name(try entity.hashKeyStorageName))
        if entity.tombstoneLifetime != nil { condition = condition || .attributeExists(.name(EntityDescription.tombstoneAttribute)) }
        let put = try Put(item: item, tableName: entity.tableName, returnValuesOnConditionCheckFailure: .allOld)
            .with(Expressions(condition: condition))
        return WriteAction(object: object, kind: .insert, action: TransactWriteItem(put: put), storedItem: item)
    }

    /// The `Delete` of a stored object, on the ``removalConditions(_:)``.
    private func deleteAction(_ object: ManagedObject) throws -> WriteAction {
        let entity = object.entity
        if let lifetime = entity.tombstoneLifetime, let expiry = entity.expiryAttribute.flatMap(entity.attribute(named:)) {
            // The tombstone in place of the row, on the same conditions.
            let now = Int(Date().timeIntervalSince1970)
            var item = object.objectID.key
            item[EntityDescription.tombstoneAttribute] = .n(DynamoNumber(now))
            item[expiry.storageName] = .n(DynamoNumber(now + lifetime))
            if let versionName = entity.versionStorageName {
                item[versionName] = .n(DynamoNumber(Int((object.snapshot?.version(of: entity) ?? 0) + 1)))
            }
            let put = try Put(item: item, tableName: entity.tableName, returnValuesOnConditionCheckFailure: .allOld)
                .with(Expressions(condition: ConditionExpression.all(try removalConditions(object))))
            return WriteAction(object: object, kind: .delete, action: TransactWriteItem(put: put), storedItem: nil)
        }
        let delete = try Delete(key: object.objectID.key, tableName: entity.tableName, returnValuesOnConditionCheckFailure: .allOld)
            .with(Expressions(condition: ConditionExpression.all(try removalConditions(object))))
        return WriteAction(object: object, kind: .delete, action: TransactWriteItem(delete: delete), storedItem: nil)
    }

    /// The conditions under which a deleted object's row may go (deleted, or replaced by a new
    /// object of the same key): its version and its relationships with an inverse are as
    /// read. A to-many `ADD` of another context does not change the version, a row deleted and
    /// inserted again meanwhile starts at version 1 again, and the delete rules only reached
    /// the destinations read.
    private func removalConditions(_ object: ManagedObject) throws -> [ConditionExpression] {
        let entity = object.entity
        var conditions = [versionCondition(object, versionName: entity.versionStorageName)]
        for relationship in entity.relationships where relationship.inverse != nil {
            let read = object.snapshot?.relationships[relationship.name] ?? []
            if relationship.isToMany {
                if let unchanged = try unchangedSet(read, of: relationship, in: entity) { conditions.append(unchanged) }
            } else {
                conditions.append(Self.storedAsRead(relationship.storageName, try relationshipValue(read, for: relationship, in: entity)))
            }
        }
        return conditions
    }

    /// The row still has the version the object read (or, without a version attribute, still
    /// exists).
    func versionCondition(_ object: ManagedObject, versionName: String?) -> ConditionExpression {
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
