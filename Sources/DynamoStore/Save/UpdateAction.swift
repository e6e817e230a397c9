import DynamoAPI
import DynamoClient

extension ObjectContext {
    /// An update that sends only what changed: `SET`/`REMOVE` of attributes and to-one
    /// relationships (guarded by the version read), and to-many relationships as deltas
    /// (`ADD`/`DELETE` on the stored set, unguarded, so concurrent additions to one set both
    /// succeed). A to-many change that both adds and removes is one `SET` of the whole set
    /// (an update expression names an attribute once), on the condition that the stored set
    /// is still the one read.
    ///
    /// To-many deltas are the object's ``LinkIntents``: its own changes and the links its
    /// partners changed, written even when this object's (stale) snapshot already shows them.
    /// A to-one relationship the object did not change itself but a partner's link change
    /// depends on is checked instead: a condition of the update, or a `ConditionCheck` when the
    /// object writes nothing.
    ///
    /// An object read in an older model version and changed now also writes its migration:
    /// what differs from the row as stored, and the model version.
    func updateAction(_ object: ManagedObject, links: LinkIntents) throws -> WriteAction? {
        let entity = object.entity
        let migration = object.changedValues.isEmpty ? nil : object.unmigrated
        let snapshotItem = try migration?.raw ?? storedItem(of: object)
        var item = currentItem(of: object)
        var update = UpdateExpression()
        var setConditions: [ConditionExpression] = []
        var checks: [ConditionExpression] = []
        var guarded = false
        let versionName = entity.versionStorageName
        for name in entity.attributes.map(\.storageName) where name != versionName && item[name] != snapshotItem[name] {
            guarded = true
            update = item[name].map { update.set(.name(name), .value($0)) } ?? update.remove(.name(name))
        }
        for relationship in entity.relationships {
            let name = relationship.storageName
            let intents = links.links(of: object.objectID, relationship.name)
            guard relationship.isToMany else {
                if item[name] != snapshotItem[name] {
                    guarded = true
                    update = item[name].map { update.set(.name(name), .value($0)) } ?? update.remove(.name(name))
                    if relationship.inverse != nil { setConditions.append(Self.storedAsRead(name, snapshotItem[name])) }
                } else {
                    checks += try toOneConditions(intents, of: relationship, in: entity)
                }
                continue
            }
            guard !intents.isEmpty else { continue }
            let stored = object.snapshot?.relationships[relationship.name] ?? []
            let added = Set(intents.filter(\.value).keys), removed = Set(intents.filter { !$0.value }.keys)
            let target = stored.union(added).subtracting(removed)
            item[name] = try relationshipValue(target, for: relationship, in: entity)
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
            update = item[name].map { update.set(.name(name), .value($0)) } ?? update.remove(.name(name))
        }
        if let migration, let versioning = store.modelVersioning {
            let modelNames = Set(entity.attributes.map(\.storageName) + entity.relationships.map(\.storageName))
            for name in migration.dropped.subtracting(modelNames).sorted() { update = update.remove(.name(name)) }
            update = update.set(.name(versioning.attributeName), .value(.n(DynamoNumber(versioning.version))))
            guarded = true
        }
        let exists = ConditionExpression.attributeExists(.name(try entity.hashKeyStorageName))
        guard !update.isEmpty else {
            guard let condition = ConditionExpression.all([exists] + checks), !checks.isEmpty else { return nil }
            var check = try ConditionCheck(key: object.objectID.key, tableName: entity.tableName, condition: condition)
            check.returnValuesOnConditionCheckFailure = .allOld
            return WriteAction(object: object, kind: .check, action: TransactWriteItem(conditionCheck: check), storedItem: nil)
        }
        var conditions = setConditions + checks
        if guarded {
            conditions.insert(versionCondition(object, versionName: versionName), at: 0)
            if let versionName {
                let next = DynamoNumber(Int((object.snapshot?.version(of: entity) ?? 0) + 1))
                update = update.set(.name(versionName), .value(.n(next)))
                item[versionName] = .n(next)
            }
        } else {
            conditions.insert(exists, at: 0)
        }
        var action = try Update(
            key: object.objectID.key, tableName: entity.tableName, update: update,
            condition: ConditionExpression.all(conditions))
        action.returnValuesOnConditionCheckFailure = .allOld
        var write = WriteAction(object: object, kind: .update, action: TransactWriteItem(update: action), storedItem: item)
        write.migrates = migration != nil
        return write
    }

    /// The condition that a to-one relationship is stored as read. A link change removes the
    /// object from the inverse of the destination read; the version alone does not prove the
    /// row still names it (a row deleted and inserted again starts at version 1 again).
    static func storedAsRead(_ name: String, _ read: AttributeValue?) -> ConditionExpression {
        let path = AttributePath.name(name)
        return read.map { ConditionExpression.attribute(path) == .value($0) } ?? .attributeNotExists(path)
    }

    /// The conditions a to-one relationship the object did not change must meet for its
    /// partners' link changes: it names the partner that linked the object, and does not name
    /// one that unlinked it.
    private func toOneConditions(
        _ intents: [ObjectID: Bool], of relationship: RelationshipDescription,
        in entity: EntityDescription
    ) throws -> [ConditionExpression] {
        guard !intents.isEmpty else { return [] }
        let path = AttributePath.name(relationship.storageName)
        let keyName = try store.model.destination(of: relationship, in: entity).hashKeyStorageName
        return intents.sorted { $0.key.description < $1.key.description }.compactMap { id, linked -> ConditionExpression? in
            guard let key = id.key[keyName] else { return nil }
            let named = ConditionExpression.attribute(path) == .value(key)
            return linked ? named : .attributeNotExists(path) || ConditionExpression.attribute(path) != .value(key)
        }
    }

    /// The condition that a to-many relationship's stored set is exactly `ids` (its size and
    /// each member), or `nil` when the set is too large for a condition expression (the
    /// version guards it then).
    func unchangedSet(
        _ ids: Set<ObjectID>, of relationship: RelationshipDescription,
        in entity: EntityDescription
    ) throws -> ConditionExpression? {
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
}
