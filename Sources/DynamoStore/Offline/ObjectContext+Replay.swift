import DynamoAPI
import DynamoClient

/// An outbox entry whose replay cannot be planned: it changes a row that an earlier entry
/// should have created, and that entry failed.
struct OutboxDependencyError: Error, CustomStringConvertible {
    let objectID: ObjectID
    var description: String { "\(objectID): it changes a row an earlier save that failed would have created" }
}

/// One row an outbox entry writes, rebuilt in the replay's context.
struct ReplayedRow {
    let record: OutboxRecord
    /// The object whose final state is the row's (for a replace, the new object).
    let object: ManagedObject
}

extension ObjectContext {
    /// Rebuilds an outbox entry's save in this (replay) context: stored objects with the rows
    /// they read, what the save changed on them as unsaved changes, new objects inserted and
    /// deleted ones deleted, so ``save()`` plans the writes (and resolves conflicts) as the
    /// online save would have. An object the device never read (a ``OutboxRecord/Kind/delta``)
    /// is a fault with its relationship changes recorded as a fault's are, or deleted: the
    /// save loads its row and applies them to it (inverses, delete rules) as online.
    func rebuild(_ records: [OutboxRecord]) throws -> [ReplayedRow] {
        var created: [ObjectID: ManagedObject] = [:]
        var rows: [ReplayedRow] = []
        var deletions: [ManagedObject] = []
        var changes: [(ManagedObject, from: Item?, after: Item)] = []
        var deltas: [(ManagedObject, links: [String: [String: Bool]])] = []
        for record in records {
            guard let entity = store.model.entity(named: record.entity) else { throw StoreError.unknownEntity(record.entity) }
            let id = ObjectID(entityName: entity.name, key: try ItemText.decode(record.key))
            if record.kind == .delta {
                let object = registerFault(for: id)
                if let links = record.links { deltas.append((object, links)) } else { deletions.append(object) }
                rows.append(ReplayedRow(record: record, object: object))
                continue
            }
            let read = try record.read.map(ItemText.decode)
            let after = try record.after.map(ItemText.decode)
            var kind = record.kind
            if read == nil && kind == .replace { kind = .insert }
            if read == nil && kind != .insert { throw OutboxDependencyError(objectID: id) }
            if let read, kind != .insert {
                let object = registerFault(for: id)
                // A row read in an older model version is migrated again, as online.
                try fulfill(object, with: try record.readRaw.map(ItemText.decode) ?? read)
                if kind == .delete || kind == .replace { deletions.append(object) }
                if kind == .update, let after { changes.append((object, try record.changesFrom.map(ItemText.decode) ?? read, after)) }
                if kind != .replace {
                    rows.append(ReplayedRow(record: record, object: object))
                    continue
                }
            }
            guard let after else { continue }
            let object = ObjectMaking.$withDefaults.withValue(false) { store.objectClass(for: entity).init() }
            object.entityStorage = entity
            object.pending = [:]
            created[id] = object
            changes.append((object, nil, after))
            rows.append(ReplayedRow(record: record, object: object))
        }
        let resolve = { (id: ObjectID) in created[id] ?? self.object(with: id) }
        for (object, from, after) in changes { try setChanges(of: object, from: from, to: after, resolve: resolve) }
        for (object, links) in deltas { try setDelta(of: object, links, resolve: resolve) }
        for object in created.values.sorted(by: { $0.objectID.description < $1.objectID.description }) { insert(object) }
        for object in deletions { delete(object) }
        return rows
    }

    /// Sets what a save changed (what differs between the row it was made on and `after`;
    /// every value for a new object) as an object's unsaved changes over the row it reads now:
    /// attributes and to-one relationships take their new values, to-many relationships get
    /// the destinations the save added and lose those it removed.
    private func setChanges(of object: ManagedObject, from before: Item?, to after: Item, resolve: (ObjectID) -> ManagedObject) throws {
        let entity = object.entity
        for attribute in entity.attributes where attribute.name != entity.versionAttribute {
            let value = after[attribute.storageName]
            if let before {
                if before[attribute.storageName] != value { object.pending[attribute.name] = .attribute(value) }
            } else if let value {
                object.pending[attribute.name] = .attribute(value)
            }
        }
        let afterLinks = try Snapshot(item: after, entity: entity, model: store.model, checked: false).relationships
        let beforeLinks = try before.map { try Snapshot(item: $0, entity: entity, model: store.model, checked: false).relationships } ?? [:]
        let readLinks = object.snapshot?.relationships ?? [:]
        for relationship in entity.relationships {
            let ids = afterLinks[relationship.name] ?? [], was = beforeLinks[relationship.name] ?? []
            guard ids != was else { continue }
            let now = relationship.isToMany ? (readLinks[relationship.name] ?? []).union(ids.subtracting(was)).subtracting(was.subtracting(ids)) : ids
            object.pending[relationship.name] = .objects(Set(now.map(resolve)))
        }
    }

    /// Records a delta record's relationship changes on its (fault) object, as a fault records
    /// the changes its partners make: the destinations added and removed.
    private func setDelta(of object: ManagedObject, _ links: [String: [String: Bool]], resolve: (ObjectID) -> ManagedObject) throws {
        for (name, changes) in links {
            guard let relationship = object.entity.relationship(named: name) else { continue }
            let destination = try store.model.destination(of: relationship, in: object.entity)
            var added: Set<ManagedObject> = [], removed: Set<ManagedObject> = []
            for (keyText, linked) in changes {
                let target = resolve(ObjectID(entityName: destination.name, key: try ItemText.decode(keyText)))
                if linked { added.insert(target) } else { removed.insert(target) }
            }
            object.pending[name] = .delta(added: added, removed: removed)
        }
    }

    /// How each rebuilt row ended after the replay's save, and what the device's cache takes
    /// from it (`nil`: the row is gone). `conflicts` holds, for each object that met one, the
    /// row its last resolution was made against: the row it ended as, unchanged, is rolled back.
    func outcome(
        of rows: [ReplayedRow], conflicts: [ObjectID: Item?]
    ) -> (resolutions: [ObjectID: OutboxOutcome.Resolution], results: [String: Item?]) {
        var resolutions: [ObjectID: OutboxOutcome.Resolution] = [:]
        var results: [String: Item?] = [:]
        for row in rows where row.record.kind != .check {
            let object = row.object
            let entity = object.entity
            // A delta's object the save did not need to read: the device learns nothing of it.
            if row.record.kind == .delta && object.isFault && object.lifecycle == .stored {
                resolutions[object.objectID] = .applied
                continue
            }
            let stored = object.lifecycle == .stored && !object.isDeletedInStore && !object.isFault
            let final: Item? = stored ? currentItem(of: object) : nil
            let id = ObjectID(entityName: entity.name, key: (try? ItemText.decode(row.record.key)) ?? object.objectID.key)
            results[OfflineStore.recordKey(row.record.entity, row.record.key)] = .some(final)
            guard let conflict = conflicts[id] ?? conflicts[object.objectID] else {
                resolutions[id] = .applied
                continue
            }
            let after = try? row.record.after.map(ItemText.decode)
            resolutions[id] =
                if Self.same(final, after ?? nil, entity) {
                    .objectWon
                } else if Self.same(final, conflict, entity) {
                    .rolledBack
                } else {
                    .merged
                }
        }
        return (resolutions, results)
    }

    private static func same(_ lhs: Item?, _ rhs: Item?, _ entity: EntityDescription) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        return sameModelValues(lhs, rhs, of: entity, includingVersion: false)
    }
}
