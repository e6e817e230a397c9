import DynamoAPI

// Reading and writing property values. Every change goes through `setPending`, which is where
// the context records it for undo; relationships keep their inverse on the other side.
extension ManagedObject {
    /// Stops with a clear message when a fault's values are read before it was loaded.
    func requireLoaded(_ name: String) {
        precondition(!isFault, StoreError.notLoaded(objectID, property: name).description)
    }

    /// Loads the object if it is a fault (one `GetItem`; nothing for a loaded object). Swift
    /// property access cannot do I/O, so a fault is loaded explicitly before its properties are
    /// read; ``value(forKey:)`` of a fault throws ``StoreError/notLoaded(_:property:)`` naming
    /// this method, and a typed property of a fault stops the program with that message.
    ///
    /// ```swift
    /// let home = context.object(with: id) as! Location
    /// try await home.load()
    /// print(home.name)
    /// ```
    ///
    /// - Throws: ``StoreError/wrongContext(_:)`` for an object without a context; DynamoDB's
    ///   errors; ``StoreError/objectDeletedInStore(_:)`` when so configured.
    public func load() async throws {
        guard let context else { throw StoreError.wrongContext(objectID) }
        try await context.load(self)
    }

    /// The attribute's current value in DynamoDB form.
    func attributeValue(_ name: String) -> AttributeValue? {
        requireLoaded(name)
        if case .attribute(let value)? = pending[name] { return value }
        return snapshot?.attributes[name]
    }

    /// Sets an attribute's value in DynamoDB form (`nil`: remove it).
    func setAttributeValue(_ value: AttributeValue?, for name: String) {
        invalidValues[name] = nil
        setPending(name, .attribute(value))
    }

    /// The relationship's current destinations.
    func relatedObjects(_ name: String) -> Set<ManagedObject> {
        requireLoaded(name)
        if case .objects(let objects)? = pending[name] { return objects }
        guard let ids = snapshot?.relationships[name], let context else { return [] }
        return Set(ids.map { context.registerFault(for: $0) })
    }

    /// Replaces a relationship's destinations, updating the inverse of every destination added
    /// or removed (and, for a to-one inverse, the destination's previous owner).
    func setRelatedObjects(_ objects: Set<ManagedObject>, for relationship: RelationshipDescription) {
        let old = relatedObjects(relationship.name)
        if let context {
            for object in objects where object.context !== context {
                precondition(
                    object.context == nil && object.lifecycle == .detached,
                    "\(object.objectID) belongs to another context; pass ObjectIDs between contexts")
                context.insert(object)
            }
        }
        setPending(relationship.name, .objects(objects))
        guard let inverseName = relationship.inverse else { return }
        for removed in old.subtracting(objects) {
            removed.primitiveRemove(self, from: inverseName)
        }
        for added in objects.subtracting(old) {
            guard let inverse = added.entity.relationship(named: inverseName) else { continue }
            if !inverse.isToMany, !added.isFault, let previous = added.relatedObjects(inverseName).first, previous !== self {
                previous.primitiveRemove(added, from: relationship.name)
            }
            added.primitiveAdd(self, to: inverse)
        }
    }

    /// Adds a destination without touching inverses (a to-one is replaced).
    func primitiveAdd(_ object: ManagedObject, to relationship: RelationshipDescription) {
        if isFault {
            var (added, removed) = delta(relationship.name)
            added.insert(object)
            removed.remove(object)
            setPending(relationship.name, .delta(added: added, removed: removed))
            return
        }
        var objects = relationship.isToMany ? relatedObjects(relationship.name) : []
        objects.insert(object)
        setPending(relationship.name, .objects(objects))
    }

    /// Removes a destination without touching inverses.
    func primitiveRemove(_ object: ManagedObject, from name: String) {
        if isFault {
            var (added, removed) = delta(name)
            added.remove(object)
            removed.insert(object)
            setPending(name, .delta(added: added, removed: removed))
            return
        }
        var objects = relatedObjects(name)
        guard objects.remove(object) != nil else { return }
        setPending(name, .objects(objects))
    }

    /// Forgets a recorded removal of a destination from a fault's relationship, without
    /// adding it (the store's row decides when the fault fires).
    func cancelRemoval(of object: ManagedObject, from name: String) {
        guard case .delta(let added, var removed)? = pending[name], removed.remove(object) != nil else { return }
        setPending(name, .delta(added: added, removed: removed))
    }

    private func delta(_ name: String) -> (Set<ManagedObject>, Set<ManagedObject>) {
        if case .delta(let added, let removed)? = pending[name] { return (added, removed) }
        return ([], [])
    }

    /// Records a change; the context registers its undo.
    func setPending(_ name: String, _ value: PendingValue?) {
        if let context, context.undoManager != nil {
            context.recordChange(of: self, property: name, from: effectiveValue(name))
        }
        pending[name] = value
    }

    /// The property's current value as a pending change, so undo restores the value itself
    /// (not "no change", which would mean something else after a save).
    private func effectiveValue(_ name: String) -> PendingValue? {
        if let change = pending[name] { return change }
        if entity.relationship(named: name) != nil {
            guard !isFault, let context else { return nil }
            return .objects(Set((snapshot?.relationships[name] ?? []).map(context.registerFault(for:))))
        }
        return .attribute(snapshot?.attributes[name])
    }

    /// Turns relationship deltas recorded while the object was a fault into full values, once
    /// its snapshot is known; a to-one replaced on the other side leaves its old destination.
    func resolveDeltas() {
        for (name, change) in pending {
            guard case .delta(let added, let removed) = change, let relationship = entity.relationship(named: name) else { continue }
            let stored = Set((snapshot?.relationships[name] ?? []).compactMap { context?.registerFault(for: $0) })
            var objects = stored.subtracting(removed)
            if relationship.isToMany {
                objects.formUnion(added)
            } else if let newest = added.first {
                objects = [newest]
            }
            pending[name] = .objects(objects)
            guard let inverse = relationship.inverse, !relationship.isToMany else { continue }
            for replaced in stored.subtracting(objects).subtracting(removed) {
                replaced.primitiveRemove(self, from: inverse)
            }
        }
    }

    /// Finds the property wrappers of a model class and names them after their properties;
    /// declared default values become the object's initial values, unless the object is made
    /// as a fault (``ObjectMaking/withDefaults``: its values come from its row). Where they are
    /// is found once per class (``PropertyLayout``); without a layout, by reflection.
    func bindProperties() {
        let defaults = ObjectMaking.withDefaults
        guard let layout = PropertyLayout.of(type(of: self)) else {
            for (name, binding) in mirroredProperties() {
                binding.box.name = name
                if defaults, let initial = binding.initialStoredValue() { pending[name] = .attribute(initial) }
            }
            return
        }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        for field in layout.fields {
            if let initial = field.type.bind(at: base + field.offset, name: field.name, defaults: defaults) {
                pending[field.name] = .attribute(initial)
            }
        }
    }

    /// The property wrappers of a model class, in reflection order (for deriving its entity).
    var properties: [any PropertyWrapperBinding] {
        guard let layout = PropertyLayout.of(type(of: self)) else { return mirroredProperties().map(\.binding) }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        return layout.fields.map { $0.type.load(from: base + $0.offset) }
    }

    private func mirroredProperties() -> [(name: String, binding: any PropertyWrapperBinding)] {
        var result: [(name: String, binding: any PropertyWrapperBinding)] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"),
                    let binding = child.value as? any PropertyWrapperBinding
                else { continue }
                result.append((String(label.dropFirst()), binding))
            }
            mirror = current.superclassMirror
        }
        return result
    }
}

/// How the objects being made now are set up.
enum ObjectMaking {
    /// Whether declared default values become a new object's initial values: not for a fault
    /// made for a stored row, whose values all come from the row (and which drops pending values
    /// anyway), so fetching does not format a default `Date()` per row for nothing.
    @TaskLocal static var withDefaults = true
}
