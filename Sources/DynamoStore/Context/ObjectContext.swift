import DynamoAPI
import DynamoClient

/// A unit of work over a ``DynamoStore``: the objects read, inserted, changed and deleted
/// since the last save, with one object per identity (uniquing), undo, validation and saves
/// that are one DynamoDB transaction whenever they fit.
///
/// A context and its objects are confined to the isolation domain that made them (they are
/// not `Sendable`); its async methods run on the caller's actor. Use one context per actor or
/// task and pass ``ObjectID``s between them.
///
/// ```swift
/// let context = ObjectContext(store: store)
/// let home = Location(context: context)
/// home.name = "Home"
/// try await context.save()
/// ```
public final class ObjectContext {
    /// The store the context reads from and saves to.
    public let store: DynamoStore
    /// The parent context a save pushes into (no I/O), or `nil` for a context that saves to the
    /// store.
    public let parent: ObjectContext?
    /// How a save resolves conflicting writes (default ``MergePolicy/error``).
    public var mergePolicy: MergePolicy = .error
    /// What happens when a fault's row turns out to be deleted in the store.
    public var deletedObjectHandling: DeletedObjectHandling = .notify
    /// Records changes for undo; `nil` turns undo off (faster for bulk imports).
    public var undoManager: UndoStack? = UndoStack()
    /// The identities of objects found deleted in the store when their fault fired (the
    /// notification of ``DeletedObjectHandling/notify``).
    public let objectsDeletedInStore: AsyncStream<ObjectID>

    let deletedInStoreContinuation: AsyncStream<ObjectID>.Continuation
    var validationRules: [String: [(ManagedObject) throws -> Void]] = [:]
    var registered: [ObjectID: ManagedObject] = [:]
    var insertedList: [ManagedObject] = []
    var deletedList: [ManagedObject] = []
    /// Set on the private context that replays an outbox entry: its saves go to DynamoDB with
    /// the entry's request tokens, and its reads bypass the device's copy.
    var replay: OutboxReplayState?

    /// Makes a context that saves to the store.
    ///
    /// - Parameter store: the store.
    public init(store: DynamoStore) {
        self.store = store
        parent = nil
        (objectsDeletedInStore, deletedInStoreContinuation) = AsyncStream<ObjectID>.makeStream()
    }

    /// Makes a child context whose saves push its changes into `parent` without I/O; the parent
    /// stores them when it saves.
    ///
    /// - Parameter parent: the parent context (same isolation domain).
    public init(parent: ObjectContext) {
        store = parent.store
        self.parent = parent
        (objectsDeletedInStore, deletedInStoreContinuation) = AsyncStream<ObjectID>.makeStream()
    }

    deinit {
        deletedInStoreContinuation.finish()
    }

    // MARK: Objects

    /// Inserts a new object (and the new objects its relationships reach); it is stored at the
    /// next save.
    ///
    /// - Parameter object: a detached object (made with `init()` or `init(entity:)`).
    public func insert(_ object: ManagedObject) {
        guard object.context !== self || object.lifecycle != .inserted else { return }
        precondition(
            object.context == nil && object.lifecycle == .detached,
            "\(object.objectID) already belongs to a context")
        guard let entity = store.model.entity(named: object.entity.name) else {
            preconditionFailure(StoreError.unknownEntity(object.entity.name).description)
        }
        object.entityStorage = entity
        object.context = self
        object.lifecycle = .inserted
        insertedList.append(object)
        undoManager?.register { [unowned self] in self.uninsert(object) }
        for case .objects(let related) in object.pending.values {
            for destination in related where destination.context == nil { insert(destination) }
        }
    }

    private func uninsert(_ object: ManagedObject) {
        insertedList.removeAll { $0 === object }
        object.context = nil
        object.lifecycle = .detached
        undoManager?.register { [unowned self] in self.insert(object) }
    }

    /// Marks an object deleted; its delete rules are applied by ``processPendingChanges()``
    /// (which ``save()`` calls) and the row is deleted at the save.
    ///
    /// - Parameter object: an object of this context.
    public func delete(_ object: ManagedObject) {
        precondition(object.context === self, "\(object.objectID) belongs to another context")
        guard !object.deleteMark else { return }
        object.deleteMark = true
        deletedList.append(object)
        undoManager?.register { [unowned self] in self.undelete(object) }
    }

    private func undelete(_ object: ManagedObject) {
        object.deleteMark = false
        deletedList.removeAll { $0 === object }
        undoManager?.register { [unowned self] in self.delete(object) }
    }

    /// The object with this identity: the registered one (uniquing) or a new fault. Nothing is
    /// read; ``load(_:)`` or ``existingObject(with:)`` reads it.
    ///
    /// - Parameter id: the identity (its entity must be in the model).
    public func object(with id: ObjectID) -> ManagedObject {
        if let object = registered[id] { return object }
        if let inserted = insertedList.first(where: { $0.objectID == id }) { return inserted }
        return registerFault(for: id)
    }

    /// The object with this identity, loaded; `nil` when the store has no such row.
    ///
    /// - Parameter id: the identity.
    /// - Throws: DynamoDB's errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func existingObject(with id: ObjectID) async throws -> ManagedObject? {
        let known = registered[id] != nil || insertedList.contains { $0.objectID == id }
        let object = object(with: id)
        guard known || parent != nil || !object.isFault else {
            // A key this context never saw: no row is simply no object, not a deletion.
            let found: Item?
            if let offline = offlineReads {
                found = try await localRows(of: [id], offline: offline)[id] ?? nil
            } else {
                found = try await store.client.getItem(
                    GetItemInput(
                        tableName: object.entity.tableName, key: id.key, consistentRead: true)
                ).item
            }
            // A tombstone (``EntityDescription/tombstoneLifetime``) is no row either.
            guard let item = found, !object.entity.isTombstone(item) else {
                registered[id] = nil
                object.lifecycle = .invalid
                return nil
            }
            try fulfill(object, with: item)
            return object
        }
        try await load(object)
        return object.isDeletedInStore ? nil : object
    }

    /// The object with this identity as a model class, loaded; `nil` when the store has no such
    /// row or the object is not a `T`.
    ///
    /// ```swift
    /// let home = try await context.existingObject(with: id, as: Location.self)
    /// ```
    ///
    /// - Throws: DynamoDB's errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func existingObject<T: ManagedObject>(with id: ObjectID, as type: T.Type) async throws -> T? {
        try await existingObject(with: id) as? T
    }

    /// Loads a fault with `GetItem` (nothing happens for a loaded object).
    ///
    /// - Throws: DynamoDB's errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func load(_ object: ManagedObject) async throws {
        try await fireFaults([object])
    }

    /// Loads many faults at once with `BatchGetItem` (100 keys per request).
    ///
    /// ```swift
    /// try await context.load(location.checkins)
    /// ```
    ///
    /// - Throws: DynamoDB's errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func load(_ objects: some Sequence<some ManagedObject>) async throws {
        try await fireFaults(objects.map { $0 as ManagedObject })
    }

    /// Adds a validation rule for an entity's objects, run before every save of an inserted or
    /// changed object (after the model's own checks and ``ManagedObject/validateForSave()``).
    /// Throw a ``ValidationError`` (or any error) to refuse the save; every object's problems
    /// are reported together.
    ///
    /// ```swift
    /// context.addValidationRule(for: "Tag") { tag in
    ///     if (tag["label"] as? String)?.isEmpty != false { throw ValidationError(issues: [
    ///         .init(objectID: tag.objectID, property: "label", message: "must not be empty")]) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - entityName: the entity.
    ///   - rule: the check.
    public func addValidationRule(for entityName: String, _ rule: @escaping (ManagedObject) throws -> Void) {
        validationRules[entityName, default: []].append(rule)
    }

    // MARK: Change tracking

    /// Objects inserted since the last save (not deleted again).
    public var insertedObjects: Set<ManagedObject> {
        Set(insertedList.filter { !$0.deleteMark })
    }

    /// Stored objects with changed values, not deleted.
    public var updatedObjects: Set<ManagedObject> {
        Set(registered.values.filter { $0.lifecycle == .stored && !$0.deleteMark && !$0.changedValues.isEmpty })
    }

    /// Stored objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> {
        Set(deletedList.filter { $0.lifecycle == .stored })
    }

    /// Every object the context holds.
    public var registeredObjects: Set<ManagedObject> {
        Set(registered.values).union(insertedList)
    }

    /// Whether a save would write anything.
    public var hasChanges: Bool {
        !insertedObjects.isEmpty || !deletedObjects.isEmpty || !updatedObjects.isEmpty
    }

    /// Records a property change for undo.
    func recordChange(of object: ManagedObject, property name: String, from previous: PendingValue?) {
        undoManager?.register { [weak object] in object?.setPending(name, previous) }
    }

    // MARK: Discarding

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come
    /// back, changed values revert to what was read. Undo history is cleared.
    public func rollback() {
        for object in insertedList {
            object.invalidValues = [:]
            object.context = nil
            object.lifecycle = .detached
            object.deleteMark = false
        }
        insertedList = []
        for object in registered.values {
            object.pending = [:]
            object.invalidValues = [:]
            object.deleteMark = false
        }
        deletedList = []
        undoManager?.removeAllActions()
    }

    /// Forgets every object (they must not be used afterwards) and every change.
    public func reset() {
        for object in registeredObjects {
            object.context = nil
            object.lifecycle = .invalid
        }
        registered = [:]
        insertedList = []
        deletedList = []
        undoManager?.removeAllActions()
    }
}

/// How a save resolves a conflict: an object's row changed (or vanished) in the store since the
/// object was read. Core Data's five policies.
public enum MergePolicy: Sendable, Hashable {
    /// The save throws ``MergeConflictError`` listing every conflict (the default).
    case error
    /// Property by property, values changed in the store win over the object's changes; the
    /// object's other changes are saved on top of the store's version.
    case mergeByPropertyStoreTrump
    /// Property by property, the object's changes win; the store's other changes are kept.
    case mergeByPropertyObjectTrump
    /// The object's whole state overwrites the row.
    case overwrite
    /// The object's changes are discarded; it takes the store's values.
    case rollback
}

/// What a context does when a fault's row is gone from the store.
public enum DeletedObjectHandling: Sendable, Hashable {
    /// The object reads as empty and its identity is sent on
    /// ``ObjectContext/objectsDeletedInStore``.
    case notify
    /// Loading throws ``StoreError/objectDeletedInStore(_:)``.
    case throwError
}
