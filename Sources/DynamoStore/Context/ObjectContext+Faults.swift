import DynamoAPI
import DynamoClient
import Logging

// Registration and faulting: the hooks fetching builds on.
extension ObjectContext {
    /// The registered object for this identity, or a new fault registered for it.
    func registerFault(for id: ObjectID) -> ManagedObject {
        if let object = registered[id] { return object }
        guard let entity = store.model.entity(named: id.entityName) else {
            preconditionFailure("\(id): \(StoreError.unknownEntity(id.entityName))")
        }
        let type = store.objectClass(for: entity)
        let object = ObjectMaking.$withDefaults.withValue(false) { type.init() }
        object.entityStorage = entity
        object.pending = [:]
        object.storedID = id
        object.isFault = true
        object.lifecycle = .stored
        object.context = self
        registered[id] = object
        return object
    }

    /// Registers an item read from the store: the object already registered for its identity
    /// (its snapshot refreshed, its unsaved changes kept) or a new loaded object.
    @discardableResult
    func registerFetched(item: Item, entity: EntityDescription) throws -> ManagedObject {
        let id = try identity(of: item, entity: entity)
        let object = registerFault(for: id)
        try fulfill(object, with: item)
        return object
    }

    /// The identity of a stored item.
    func identity(of item: Item, entity: EntityDescription) throws(StoreError) -> ObjectID {
        var key: Item = [:]
        for attribute in entity.keyAttributes {
            guard let value = item[attribute.storageName] else {
                throw .undecodableValue("\(entity.name) item without its key attribute '\(attribute.storageName)'")
            }
            key[attribute.storageName] = value
        }
        return ObjectID(entityName: entity.name, key: key)
    }

    /// Gives an object its stored values: a row read from the store in the current model's
    /// form (migrated when it is older, see ``ModelVersioning``), or, from a parent context,
    /// `unmigrated` the parent's values and the row they came from.
    func fulfill(_ object: ManagedObject, with item: Item, fromParent unmigrated: UnmigratedItem?? = nil) throws(StoreError) {
        if object.entity.isTombstone(item) {
            try markDeletedInStore(object)
            return
        }
        if let unmigrated {
            object.snapshot = try Snapshot(item: item, entity: object.entity, model: store.model)
            object.unmigrated = unmigrated
        } else {
            let (current, unmigrated) = try currentForm(of: item, entity: object.entity)
            object.snapshot = try Snapshot(item: current, entity: object.entity, model: store.model)
            object.unmigrated = unmigrated
        }
        object.isDeletedInStore = false
        if object.isFault {
            object.isFault = false
            object.resolveDeltas()
        }
    }

    /// Marks a fault whose row is gone: it reads as empty, and the context notifies or throws.
    func markDeletedInStore(_ object: ManagedObject) throws(StoreError) {
        if deletedObjectHandling == .throwError { throw .objectDeletedInStore(object.objectID) }
        object.snapshot = Snapshot()
        object.isDeletedInStore = true
        if object.isFault {
            object.isFault = false
            object.resolveDeltas()
        }
        deletedInStoreContinuation.yield(object.objectID)
        store.logger.debug("object deleted in store", metadata: ["entity": .string(object.entity.name)])
    }

    /// Fires faults: one `GetItem` for a single fault, `BatchGetItem` (100 keys per request,
    /// unprocessed keys resubmitted) for several. Loaded objects are skipped.
    func fireFaults(_ objects: [ManagedObject]) async throws {
        var seen: Set<ObjectIdentifier> = []
        let faults = objects.filter { $0.isFault && seen.insert(ObjectIdentifier($0)).inserted }
        try await reload(try fulfillFromParent(faults))
    }

    /// Fires faults as ``fireFaults(_:)`` does, except in a context that saves to the device
    /// (an ``OfflineStore``'s, not a child's nor a replay's): there a fault whose row cannot be
    /// read (DynamoDB unreachable, the row neither cached nor pending) stays a fault, and its
    /// changes are saved as a delta. Returns those faults.
    func fireFaultsKeepingUnread(_ objects: [ManagedObject]) async throws -> Set<ObjectIdentifier> {
        guard parent == nil, replay == nil, let offline = store.offline else {
            try await fireFaults(objects)
            return []
        }
        var seen: Set<ObjectIdentifier> = []
        let faults = objects.filter { $0.isFault && seen.insert(ObjectIdentifier($0)).inserted }
        guard !faults.isEmpty else { return [] }
        return Set(try await reloadThroughDevice(faults, offline: offline, keepingUnread: true).map(ObjectIdentifier.init))
    }

    /// Reads objects' rows again: one `GetItem` for one object, `BatchGetItem` for several.
    func reload(_ objects: [ManagedObject]) async throws {
        if let offline = offlineReads {
            if !objects.isEmpty { try await reloadThroughDevice(objects, offline: offline) }
            return
        }
        guard objects.count == 1, let object = objects.first else {
            if !objects.isEmpty { try await read(objects) }
            return
        }
        let output = try await store.client.getItem(
            GetItemInput(
                tableName: object.entity.tableName, key: object.objectID.key, consistentRead: true))
        if let item = output.item { try fulfill(object, with: item) } else { try markDeletedInStore(object) }
    }

    /// A child context's faults take their values from the parent's objects when the parent
    /// has them loaded (with its unsaved changes); the rest are returned for reading.
    private func fulfillFromParent(_ faults: [ManagedObject]) throws -> [ManagedObject] {
        guard let parent else { return faults }
        var unresolved: [ManagedObject] = []
        for fault in faults {
            let id = fault.objectID
            let source = parent.registered[id] ?? parent.insertedList.first { $0.objectID == id }
            if let source, !source.isFault, !source.isDeletedInStore {
                try fulfill(fault, with: parent.currentItem(of: source), fromParent: .some(source.unmigrated))
            } else {
                unresolved.append(fault)
            }
        }
        return unresolved
    }

    /// Reads the rows of objects with `BatchGetItem` and gives each its values (or marks it
    /// deleted in the store).
    func read(_ objects: [ManagedObject]) async throws {
        var requests: [String: KeysAndAttributes] = [:]
        var byID: [ObjectID: ManagedObject] = [:]
        var entities: [String: EntityDescription] = [:]
        for object in objects {
            let entity = object.entity
            entities[entity.tableName] = entity
            byID[object.objectID] = object
            requests[entity.tableName, default: KeysAndAttributes(keys: [], consistentRead: true)].keys.append(object.objectID.key)
        }
        let results = try await store.client.batchGetAll(requests)
        var found: Set<ObjectID> = []
        for (table, items) in results {
            guard let entity = entities[table] else { continue }
            for item in items {
                let id = try identity(of: item, entity: entity)
                guard let object = byID[id] else { continue }
                found.insert(id)
                try fulfill(object, with: item)
            }
        }
        for (id, object) in byID where !found.contains(id) { try markDeletedInStore(object) }
    }

    /// The object's current values as the item a save would store: keys, attributes,
    /// relationship keys (empty sets left out, as DynamoDB has no empty sets).
    func currentItem(of object: ManagedObject) -> Item {
        let entity = object.entity
        var item: Item = [:]
        for attribute in entity.attributes {
            let value: AttributeValue? =
                if case .attribute(let changed)? = object.pending[attribute.name] {
                    changed
                } else {
                    object.snapshot?.attributes[attribute.name]
                }
            if let value { item[attribute.storageName] = value }
        }
        for relationship in entity.relationships {
            if let value = try? relationshipValue(currentIDs(of: object, relationship.name), for: relationship, in: entity) {
                item[relationship.storageName] = value
            }
        }
        return item
    }

    /// The identities a relationship holds now (deltas of a fault applied to what is known).
    func currentIDs(of object: ManagedObject, _ name: String) -> Set<ObjectID> {
        let stored = object.snapshot?.relationships[name] ?? []
        switch object.pending[name] {
        case .objects(let objects)?: return Set(objects.map(\.objectID))
        case .delta(let added, let removed)?:
            return stored.subtracting(removed.map(\.objectID)).union(added.map(\.objectID))
        default: return stored
        }
    }

    /// How a relationship's destinations are stored: the key (to-one), a set of keys (to-many),
    /// or `nil` when there are none (the attribute is removed).
    func relationshipValue(_ ids: Set<ObjectID>, for relationship: RelationshipDescription, in entity: EntityDescription) throws -> AttributeValue? {
        let destination = try store.model.destination(of: relationship, in: entity)
        let keyName = try destination.hashKeyStorageName
        let keys = ids.compactMap { $0.key[keyName] }
        guard !keys.isEmpty else { return nil }
        if !relationship.isToMany { return keys[0] }
        var strings: [String] = [], numbers: [DynamoNumber] = [], binaries: [[UInt8]] = []
        for key in keys {
            switch key {
            case .s(let text): strings.append(text)
            case .n(let number): numbers.append(number)
            case .b(let bytes): binaries.append(bytes)
            default: throw StoreError.invalidValue("\(entity.path(relationship.name)): a key of type \(key.typeDescriptor)")
            }
        }
        if !numbers.isEmpty { return .ns(numbers.sorted()) }
        if !binaries.isEmpty { return .bs(binaries) }
        return .ss(strings.sorted())
    }
}
