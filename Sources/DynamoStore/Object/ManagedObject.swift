import DynamoAPI

/// An object of the store: a typed model class subclasses it, generic code uses it directly
/// through `object["name"]`.
///
/// ```swift
/// final class Location: ManagedObject {
///     override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version") }
///     @Attribute var id = UUID()
///     @Attribute var name: String
///     @Attribute var version: Int64 = 0
///     @Relationship(inverse: "location", deleteRule: .cascade) var checkins: Set<Checkin>
/// }
/// ```
///
/// An object belongs to one ``ObjectContext`` and, like it, to one isolation domain: it is not
/// `Sendable`. Pass its ``objectID`` to other contexts. Equality is identity (one object per
/// identity per context).
open class ManagedObject: Hashable, CustomStringConvertible {
    var entityStorage: EntityDescription?
    /// The context the object is registered in, if any.
    public internal(set) weak var context: ObjectContext?
    var storedID: ObjectID?
    /// The permanent identity an unsaved object was given by `obtainPermanentIDs(for:)`.
    var obtainedID: ObjectID?
    var snapshot: Snapshot?
    /// The row as stored when it was read in an older model version and migrated on load
    /// (see ``ModelVersioning``); the next save of the object writes the migration.
    var unmigrated: UnmigratedItem?
    var pending: [String: PendingValue] = [:]
    var lifecycle: Lifecycle = .detached
    var deleteMark = false
    /// Set when loading found no row: the object reads as empty.
    var isDeletedInStore = false
    /// Values assigned to typed properties that DynamoDB cannot store (NaN, 1e300, …), by
    /// property: reported by the next save's validation instead of stopping the program.
    var invalidValues: [String: String] = [:]

    /// Whether the object's values are not loaded yet (see ``ObjectContext/load(_:)``).
    ///
    /// Reading a property of a fault is a programming error: load it first.
    public internal(set) var isFault = false

    /// Makes a detached object of a typed model class, with its declared default values; insert
    /// it with ``ObjectContext/insert(_:)``.
    public required init() {
        bindProperties()
    }

    /// Makes a detached object of an entity, for generic code without a model class.
    ///
    /// - Parameter entity: the entity.
    public init(entity: EntityDescription) {
        entityStorage = entity
        bindProperties()
    }

    /// Makes an object and inserts it into a context (typed model classes).
    ///
    /// - Parameter context: the context it belongs to from now on.
    public convenience init(context: ObjectContext) {
        self.init()
        entityStorage = context.store.model.entity(named: Self.entityName) ?? Self.entityDescription
        context.insert(self)
    }

    /// Makes an object of an entity and inserts it into a context.
    ///
    /// - Parameters:
    ///   - entity: the entity.
    ///   - context: the context it belongs to from now on.
    public convenience init(entity: EntityDescription, context: ObjectContext) {
        self.init(entity: entity)
        context.insert(self)
    }

    /// The entity the object belongs to.
    public var entity: EntityDescription { entityStorage ?? Self.entityDescription }

    /// The object's identity: its entity and primary key (for an unsaved object, its key
    /// values as they are now, a temporary ID, until it is saved or
    /// ``ObjectContext/obtainPermanentIDs(for:)`` fixes it).
    public var objectID: ObjectID {
        if let storedID { return storedID }
        if let obtainedID { return obtainedID }
        // The key names directly, not `keyAttributes` (two arrays per call): a save asks an
        // inserted object for its ID several times.
        let entity = self.entity
        var key: Item = Dictionary(minimumCapacity: entity.rangeKey == nil ? 1 : 2)
        for name in [entity.hashKey, entity.rangeKey] {
            guard let name, case .attribute(let value?)? = pending[name], let attribute = entity.attribute(named: name) else { continue }
            key[attribute.storageName] = value
        }
        return ObjectID(entityName: entity.name, key: key, isTemporary: true)
    }

    /// Whether the object is deleted in its context (the deletion is stored at the next save).
    public var isDeleted: Bool { deleteMark }

    /// Whether the object was inserted and not saved yet.
    public var isInserted: Bool { lifecycle == .inserted }

    /// Whether the object has unsaved changes (inserted, deleted or changed values).
    public var hasChanges: Bool { isInserted || isDeleted || !changedValues.isEmpty }

    /// The properties changed since the object was read or last saved, with their new values in
    /// DynamoDB form (attributes) or as the destinations' identities (relationships).
    public var changedValues: [String: PropertyValue] {
        var changes: [String: PropertyValue] = [:]
        for (name, change) in pending {
            switch change {
            case .attribute(let value):
                if value != snapshot?.attributes[name] { changes[name] = .attribute(value) }
            case .objects(let objects):
                let ids = Set(objects.map(\.objectID))
                if ids != snapshot?.relationships[name] ?? [] { changes[name] = .relationship(ids) }
            case .delta(let added, let removed):
                if !added.isEmpty || !removed.isEmpty {
                    changes[name] = .relationshipDelta(added: Set(added.map(\.objectID)), removed: Set(removed.map(\.objectID)))
                }
            }
        }
        return changes
    }

    /// The values last read from or saved to the store (attributes in DynamoDB form, by
    /// property name), or empty for unsaved objects and faults.
    public var committedValues: [String: PropertyValue] {
        guard let snapshot else { return [:] }
        var values: [String: PropertyValue] = snapshot.attributes.mapValues { .attribute($0) }
        for (name, ids) in snapshot.relationships { values[name] = .relationship(ids) }
        return values
    }

    /// Dynamic access to a property by name, for generic code.
    ///
    /// Attributes read as their Swift type (`String`, `Int64`, `Date`, …; `codable` ones as
    /// their `AttributeValue`), `nil` when absent; a to-one relationship reads as
    /// `ManagedObject?`, a to-many one as `Set<ManagedObject>`. Setting accepts the same (any
    /// integer or floating-point value for numeric attributes). An unknown name or a value of
    /// the wrong type is a programming error; ``setValue(_:forKey:)`` throws instead.
    public subscript(name: String) -> Any? {
        get {
            do { return try value(forKey: name) } catch { preconditionFailure("\(error)") }
        }
        set {
            do { try setValue(newValue, forKey: name) } catch { preconditionFailure("\(error)") }
        }
    }

    /// Reads a property by name (see ``subscript(_:)``).
    ///
    /// - Throws: ``StoreError/unknownProperty(_:)``, ``StoreError/undecodableValue(_:)``.
    public func value(forKey name: String) throws(StoreError) -> Any? {
        if isFault { throw .notLoaded(objectID, property: name) }
        if let attribute = entity.attribute(named: name) {
            return try attributeValue(name).map { value throws(StoreError) in try StoredValueCodec.decode(value, for: attribute) }
        }
        guard let relationship = entity.relationship(named: name) else { throw .unknownProperty(entity.path(name)) }
        let objects = relatedObjects(name)
        return relationship.isToMany ? objects : objects.first
    }

    /// Sets a property by name (see ``subscript(_:)``); relationships keep their inverse.
    ///
    /// - Throws: ``StoreError/unknownProperty(_:)``, ``StoreError/invalidValue(_:)``.
    public func setValue(_ value: Any?, forKey name: String) throws(StoreError) {
        if let attribute = entity.attribute(named: name) {
            setAttributeValue(try StoredValueCodec.encode(value, for: attribute, entity: entity.name), for: name)
            return
        }
        guard let relationship = entity.relationship(named: name) else { throw .unknownProperty(entity.path(name)) }
        let objects: Set<ManagedObject>
        switch value {
        case nil: objects = []
        case let object as ManagedObject where !relationship.isToMany: objects = [object]
        case let set as Set<ManagedObject> where relationship.isToMany: objects = set
        case let array as [ManagedObject] where relationship.isToMany: objects = Set(array)
        default:
            if let some = value, !relationship.isToMany, Mirror(reflecting: some).displayStyle == .optional {
                throw .invalidValue("\(entity.path(name)) takes a ManagedObject; got \(type(of: some))")
            }
            throw .invalidValue("\(entity.path(name)) takes \(relationship.isToMany ? "a Set<ManagedObject>" : "a ManagedObject?")")
        }
        for object in objects where object.entity.name != relationship.destination {
            throw .invalidValue("\(entity.path(name)) holds \(relationship.destination) objects; got a \(object.entity.name)")
        }
        setRelatedObjects(objects, for: relationship)
    }

    // MARK: Overridable behaviour

    /// The entity name of a model class (default: the class name).
    open class var entityName: String { String(describing: self) }

    /// Keys, table, version attribute and indexes of a model class (default: hash key `id`).
    open class var mapping: EntityMapping { EntityMapping() }

    /// Custom validation run before every save of an inserted or changed object; throw a
    /// ``ValidationError`` (or any error) to refuse the save. Every object's problems are
    /// collected and reported together.
    open func validateForSave() throws {}

    /// `Entity(key=…)` plus `fault`, `inserted`, `deleted` flags.
    public var description: String {
        var flags: [String] = []
        if isFault { flags.append("fault") }
        if isInserted { flags.append("inserted") }
        if isDeleted { flags.append("deleted") }
        return objectID.description + (flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]")
    }

    /// Identity.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A property's value as change tracking reports it.
public enum PropertyValue: Sendable, Hashable {
    /// An attribute's DynamoDB value, `nil` when absent.
    case attribute(AttributeValue?)
    /// A relationship's destinations.
    case relationship(Set<ObjectID>)
    /// Destinations added to and removed from a relationship of a fault.
    case relationshipDelta(added: Set<ObjectID>, removed: Set<ObjectID>)
}
