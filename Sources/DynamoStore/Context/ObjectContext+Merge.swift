import DynamoAPI

// Conflicts, merges between contexts, refreshing.
extension ObjectContext {
    /// Applies the merge policy to one conflicting object, leaving it ready to be planned again
    /// against the store's row (`ALL_OLD`).
    func resolve(_ conflict: Conflict, in changes: inout StoreChanges) throws {
        let object = conflict.action.object
        if let replaced = conflict.action.replaced {
            // The deleted object's row changed or went away: the new object is written whole
            // over whatever is there now (a plain insert when nothing is).
            forgetDeleted(replaced)
            guard let storeItem = conflict.storeItem else { return }
            let before = Dictionary(uniqueKeysWithValues: object.entity.relationships.map { ($0.name, currentIDs(of: object, $0.name)) })
            adoptAsStored(object)
            let stored = try storeSnapshot(storeItem, of: object)
            object.snapshot = stored
            agreeInverses(of: object, before: before, read: nil, stored: stored)
            return
        }
        if !conflict.action.addedBy.isEmpty {
            dropAdditions(of: conflict.action)
            return
        }
        guard let storeItem = conflict.storeItem else {
            try resolveMissingRow(object, kind: conflict.action.kind, in: &changes)
            return
        }
        let stored = try storeSnapshot(storeItem, of: object)
        let read = object.snapshot
        let wasDeleted = object.deleteMark
        let before = Dictionary(
            uniqueKeysWithValues: object.entity.relationships.map {
                ($0.name, wasDeleted && $0.deleteRule == .nullify ? [] : currentIDs(of: object, $0.name))
            })
        // To-many changes are deltas under every policy: the object's link changes (its own
        // additions and removals since its read, and those its partners made, which a stale
        // read may not show), applied to the store's set. They never conflict, so other
        // contexts' additions (whose inverses are stored) are kept.
        let links = LinkIntents(self)
        let toMany = object.entity.relationships.filter(\.isToMany).map { relationship in
            let intents = links.links(of: object.objectID, relationship.name)
            var rebased = stored.relationships[relationship.name] ?? []
            for (id, linked) in intents {
                if linked { rebased.insert(id) } else { rebased.remove(id) }
            }
            return (relationship.name, rebased, object.pending[relationship.name] != nil || !intents.isEmpty)
        }
        if conflict.action.kind == .insert { adoptAsStored(object) }
        switch mergePolicy {
        case .error, .mergeByPropertyObjectTrump:
            break
        case .mergeByPropertyStoreTrump:
            for name in Array(object.pending.keys) where Self.storeChanged(name, from: read, to: stored) {
                if let relationship = object.entity.relationship(named: name) {
                    if relationship.isToMany { continue }
                    dropInverseChanges(of: object, relationship, read: read, stored: stored)
                }
                object.pending[name] = nil
            }
        case .overwrite:
            for attribute in object.entity.attributes where object.pending[attribute.name] == nil {
                object.pending[attribute.name] = .attribute(read?.attributes[attribute.name])
            }
            for relationship in object.entity.relationships where object.pending[relationship.name] == nil && !relationship.isToMany {
                object.pending[relationship.name] = .objects(Set((read?.relationships[relationship.name] ?? []).map(registerFault(for:))))
            }
        case .rollback:
            object.pending = object.pending.filter { object.entity.relationship(named: $0.key)?.isToMany == true }
            if object.deleteMark {
                object.deleteMark = false
                deletedList.removeAll { $0 === object }
            }
        }
        object.snapshot = stored
        for (name, rebased, changed) in toMany where changed {
            // `object(with:)`: a destination inserted in this context is that object, not a fault.
            object.pending[name] = .objects(Set(rebased.map(self.object(with:))))
        }
        agreeInverses(of: object, before: before, read: read, stored: stored)
    }

    /// A destination checked for the objects that add it failed its check: its row is gone, or
    /// does not name them. Whatever the policy, they drop it again (not recorded for undo), as
    /// this context cannot write the destination's side: no set lists a row that does not
    /// list the set's owner back.
    private func dropAdditions(of action: WriteAction) {
        let undo = undoManager
        undoManager = nil
        defer { undoManager = undo }
        for (adder, relationship) in action.addedBy { adder.primitiveRemove(action.object, from: relationship) }
    }

    /// The snapshot of a conflicting row (`ALL_OLD`), migrated to the current model version;
    /// the object remembers the row when it was older.
    private func storeSnapshot(_ storeItem: Item, of object: ManagedObject) throws -> Snapshot {
        let (current, unmigrated) = try currentForm(of: storeItem, entity: object.entity)
        object.unmigrated = unmigrated
        return try Snapshot(item: current, entity: object.entity, model: store.model)
    }

    /// After a conflict, makes the to-many inverses of `object`'s to-one relationships agree
    /// with the value it ends with: destinations it now has get it, destinations this context
    /// showed it in or the store has it in (written by another context) lose it. The
    /// destinations' writes are `ADD`/`DELETE` deltas, so they never conflict themselves.
    private func agreeInverses(of object: ManagedObject, before: [String: Set<ObjectID>], read: Snapshot?, stored: Snapshot) {
        let undo = undoManager
        undoManager = nil
        defer { undoManager = undo }
        for relationship in object.entity.relationships where !relationship.isToMany {
            guard let inverseName = relationship.inverse else { continue }
            let final: Set<ObjectID> = object.deleteMark ? [] : currentIDs(of: object, relationship.name)
            let shown = before[relationship.name] ?? []
            let storedIDs = stored.relationships[relationship.name] ?? []
            for id in final.subtracting(shown) {
                let destination = self.object(with: id)
                guard let inverse = destination.entity.relationship(named: inverseName), inverse.isToMany else { continue }
                guard storedIDs.contains(id) else {
                    destination.primitiveAdd(object, to: inverse)
                    continue
                }
                // The store lists `object` there already (another context stored both sides):
                // only this context's removal is cancelled; an ADD here could re-list `object`
                // after a concurrent delete of it.
                if destination.isFault {
                    destination.cancelRemoval(of: object, from: inverseName)
                } else {
                    destination.snapshot?.relationships[inverseName, default: []].insert(object.objectID)
                    destination.primitiveAdd(object, to: inverse)
                }
            }
            for id in shown.union(storedIDs).subtracting(final) {
                let destination = self.object(with: id)
                guard destination.entity.relationship(named: inverseName)?.isToMany == true else { continue }
                if !destination.isFault, storedIDs.contains(id) {
                    // The store lists `object` there although this context's read did not.
                    destination.snapshot?.relationships[inverseName, default: []].insert(object.objectID)
                }
                destination.primitiveRemove(object, from: inverseName)
            }
        }
    }

    /// Store trump drops `object`'s change of `relationship`: the inverse changes it made on
    /// to-many inverses of its destinations are dropped too where the store's value of
    /// `object` disagrees with them (a destination it added that the store does not have loses
    /// `object` again; one it removed that the store still has gets it back), so both sides
    /// follow the store. Not recorded for undo, like the dropped change itself.
    ///
    /// A to-one inverse (a to-many change that took a destination from another owner) is left
    /// as it is: restoring it would move the destination back to an owner whose own row may
    /// have changed since.
    private func dropInverseChanges(
        of object: ManagedObject, _ relationship: RelationshipDescription,
        read: Snapshot?, stored: Snapshot
    ) {
        guard let inverseName = relationship.inverse, case .objects(let current)? = object.pending[relationship.name] else { return }
        let readIDs = read?.relationships[relationship.name] ?? []
        let storedIDs = stored.relationships[relationship.name] ?? []
        let undo = undoManager
        undoManager = nil
        defer { undoManager = undo }
        for destination in current where !readIDs.contains(destination.objectID) && !storedIDs.contains(destination.objectID) {
            guard destination.entity.relationship(named: inverseName)?.isToMany == true else { continue }
            destination.primitiveRemove(object, from: inverseName)
        }
        let currentIDs = Set(current.map(\.objectID))
        for id in readIDs.subtracting(currentIDs).intersection(storedIDs) {
            guard let destination = registered[id], let inverse = destination.entity.relationship(named: inverseName),
                inverse.isToMany
            else { continue }
            destination.primitiveAdd(object, to: inverse)
        }
    }

    private static func storeChanged(_ name: String, from read: Snapshot?, to stored: Snapshot) -> Bool {
        stored.attributes[name] != read?.attributes[name]
            || (stored.relationships[name] ?? []) != (read?.relationships[name] ?? [])
    }

    /// The row of an updated or deleted object is gone from the store.
    private func resolveMissingRow(_ object: ManagedObject, kind: WriteAction.Kind, in changes: inout StoreChanges) throws {
        switch (kind, mergePolicy) {
        case (.delete, _):
            forgetDeleted(object)
            changes.deleted.insert(object.objectID)
        case (.check, _):
            // It wrote nothing itself: its row is gone, whatever the policy.
            try removeFromInverses(object)
        case (_, .mergeByPropertyObjectTrump), (_, .overwrite):
            // The object wins: it is stored again, whole.
            for attribute in object.entity.attributes where object.pending[attribute.name] == nil {
                object.pending[attribute.name] = .attribute(object.snapshot?.attributes[attribute.name])
            }
            for relationship in object.entity.relationships where object.pending[relationship.name] == nil {
                object.pending[relationship.name] = .objects(object.relatedObjects(relationship.name))
            }
            if let id = object.storedID, registered[id] === object { registered[id] = nil }
            object.storedID = nil
            object.snapshot = nil
            object.lifecycle = .inserted
            insertedList.append(object)
        default:
            try removeFromInverses(object)
        }
    }

    /// An object whose row is gone leaves its destinations' inverses and becomes deleted in
    /// the store (not recorded for undo).
    private func removeFromInverses(_ object: ManagedObject) throws {
        let undo = undoManager
        undoManager = nil
        defer { undoManager = undo }
        for relationship in object.entity.relationships {
            guard let inverseName = relationship.inverse else { continue }
            for destination in object.relatedObjects(relationship.name) {
                destination.primitiveRemove(object, from: inverseName)
            }
        }
        object.pending = [:]
        try markDeletedInStore(object)
    }

    /// Brings the context up to date with another context's save: objects deleted there leave
    /// this context, loaded objects changed there are read again (one `BatchGetItem`), keeping
    /// this context's unsaved changes on top. Faults are left alone (they read fresh values
    /// when loaded). A context ignores its own saves.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await changes in store.changes() { try await mainContext.mergeChanges(from: changes) }
    /// }
    /// ```
    ///
    /// - Throws: DynamoDB's errors.
    public func mergeChanges(from changes: StoreChanges) async throws {
        guard changes.origin != ObjectIdentifier(self) else { return }
        for id in changes.deleted {
            guard let object = registered[id] else { continue }
            registered[id] = nil
            deletedList.removeAll { $0 === object }
            object.pending = [:]
            object.snapshot = Snapshot()
            object.isFault = false
            object.isDeletedInStore = true
            object.lifecycle = .invalid
        }
        let stale = changes.updated.union(changes.inserted).compactMap { registered[$0] }.filter { !$0.isFault }
        try await reload(stale)
    }

    /// Merges every save of the store's other contexts into this one, as it happens, until the
    /// calling task is cancelled: the built-in form of the did-save notification pattern.
    ///
    /// Saves made before the call are not seen. It runs on the caller's actor, so the context
    /// stays confined:
    ///
    /// ```swift
    /// @MainActor func start() {
    ///     mergeTask = Task { try await mainContext.mergeChangesFromStore() }
    /// }
    /// ```
    ///
    /// - Parameter didMerge: called after each merge, on the caller's actor.
    /// - Throws: DynamoDB's errors from reading changed objects; `CancellationError` never (the
    ///   loop just ends).
    public func mergeChangesFromStore(didMerge: (StoreChanges) -> Void = { _ in }) async throws {
        try await mergeChanges(from: store.changes(), didMerge: didMerge)
    }

    /// Merges every value of a change stream (from ``DynamoStore/changes()``, subscribed when
    /// it was made) until it ends or the calling task is cancelled; this context's own saves
    /// are skipped.
    ///
    /// - Parameters:
    ///   - stream: the changes.
    ///   - didMerge: called after each merge, on the caller's actor.
    /// - Throws: DynamoDB's errors from reading changed objects.
    public func mergeChanges(from stream: AsyncStream<StoreChanges>, didMerge: (StoreChanges) -> Void = { _ in }) async throws {
        for await changes in stream where changes.origin != ObjectIdentifier(self) {
            try await mergeChanges(from: changes)
            didMerge(changes)
        }
    }

    /// Reads an object's row again.
    ///
    /// - Parameters:
    ///   - object: a stored object of this context.
    ///   - mergeChanges: `true` keeps the object's unsaved changes on top of the fresh values;
    ///     `false` discards them.
    /// - Throws: DynamoDB's errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) async throws {
        guard object.lifecycle == .stored else { return }
        try await reload([object])
        if !mergeChanges { object.pending = [:] }
    }

    /// Reads every loaded object of the context again (one `BatchGetItem` per 100), keeping
    /// unsaved changes on top.
    ///
    /// - Throws: DynamoDB's errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func refreshAllObjects() async throws {
        try await reload(registered.values.filter { $0.lifecycle == .stored && !$0.isFault && !$0.isDeletedInStore })
    }

    /// Pushes a child context's changes into its parent and records them as saved in the child.
    func push(into parent: ObjectContext) throws {
        let inserted = insertedList.filter { !$0.deleteMark }
        let updated = registered.values.filter { $0.lifecycle == .stored && !$0.deleteMark && !$0.changedValues.isEmpty }
        for object in inserted {
            let copy = store.objectClass(for: object.entity).init()
            copy.entityStorage = object.entity
            copy.pending = [:]
            for attribute in object.entity.attributes {
                if case .attribute(let value)? = object.pending[attribute.name] { copy.pending[attribute.name] = .attribute(value) }
            }
            parent.insert(copy)
        }
        for object in inserted + updated {
            let target = parent.object(with: object.objectID)
            for (name, change) in object.changedValues {
                switch change {
                case .attribute(let value): target.setPending(name, .attribute(value))
                case .relationship(let ids): target.setPending(name, .objects(Set(ids.map(parent.object(with:)))))
                case .relationshipDelta: continue
                }
            }
        }
        for object in deletedList where object.lifecycle == .stored {
            parent.delete(parent.object(with: object.objectID))
        }
        for object in inserted + updated {
            if object.lifecycle == .inserted { adoptAsStored(object) }
            object.snapshot = try Snapshot(item: currentItem(of: object), entity: object.entity, model: store.model, checked: false)
            clearSavedChanges(object)
        }
        for object in deletedList where object.lifecycle == .stored { forgetDeleted(object) }
        undoManager?.closeGroup()
    }
}
