import DynamoAPI

/// The name a property wrapper learns from its property when its object is made.
final class PropertyBox {
    var name = ""
}

/// What the store needs from `@Attribute` and `@Relationship` to name them and derive the
/// entity description.
protocol PropertyWrapperBinding: SendableMetatype {
    var box: PropertyBox { get }
    /// The declared default value in DynamoDB form, if any.
    func initialStoredValue() -> AttributeValue?
    /// Adds the property to an entity description.
    func describe(into entity: inout EntityDescription)
}

/// A stored attribute of a model class.
///
/// ```swift
/// @Attribute var name: String
/// @Attribute var note: String?
/// @Attribute(storageName: "t") var createdAt = Date()
/// ```
///
/// The value type is any ``PersistentValue`` (optional when the attribute may be absent). A
/// non-optional attribute that has no value reads as the type's ``PersistentValue/placeholder``
/// and fails validation at save.
@propertyWrapper
public struct Attribute<Value: PersistentValue>: PropertyWrapperBinding {
    let box = PropertyBox()
    let storageName: String?
    let range: ClosedRange<Double>?
    let initialValue: Value?

    /// An attribute without a default value.
    public init() {
        self.init(storageName: nil, range: nil)
    }

    /// An attribute stored under another DynamoDB name, or with a range of allowed values.
    ///
    /// - Parameters:
    ///   - storageName: the DynamoDB attribute name, when it differs from the property name.
    ///   - range: the allowed values (numbers), lengths (strings, data), checked before a save.
    public init(storageName: String? = nil, range: ClosedRange<Double>? = nil) {
        self.storageName = storageName
        self.range = range
        initialValue = nil
    }

    /// An attribute with a default value for new objects.
    ///
    /// - Parameters:
    ///   - wrappedValue: the default.
    ///   - storageName: the DynamoDB attribute name, when it differs from the property name.
    ///   - range: the allowed values (numbers), lengths (strings, data), checked before a save.
    public init(wrappedValue: Value, storageName: String? = nil, range: ClosedRange<Double>? = nil) {
        self.storageName = storageName
        self.range = range
        initialValue = wrappedValue
    }

    /// Only usable inside a ``ManagedObject`` subclass.
    @available(*, unavailable, message: "@Attribute works only in ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the value through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            let name = object[keyPath: storageKeyPath].box.name
            guard let stored = object.attributeValue(name), let value = try? Value(storedValue: stored) else {
                return Value.placeholder
            }
            return value
        }
        set {
            let name = object[keyPath: storageKeyPath].box.name
            do { object.setAttributeValue(try newValue.storedValue(), for: name) } catch {
                object.invalidValues[name] = error.description
            }
        }
    }

    func initialStoredValue() -> AttributeValue? {
        guard let initialValue else { return nil }
        return try? initialValue.storedValue()
    }

    func describe(into entity: inout EntityDescription) {
        entity.attributes.append(
            AttributeDescription(
                box.name, Value.attributeType, isOptional: Value.isOptionalType, storageName: storageName, range: range))
    }
}

/// What a ``Relationship`` property can hold: an optional object (to-one) or a set (to-many).
public protocol RelationshipValue {
    /// The destination's model class.
    static var destinationType: ManagedObject.Type { get }
    /// Whether the relationship holds many objects.
    static var isToMany: Bool { get }
    /// Makes the value from the destinations.
    init(objects: Set<ManagedObject>)
    /// The destinations.
    var objects: Set<ManagedObject> { get }
}

extension Optional: RelationshipValue where Wrapped: ManagedObject {
    public static var destinationType: ManagedObject.Type { Wrapped.self }
    public static var isToMany: Bool { false }
    public init(objects: Set<ManagedObject>) { self = objects.first.map { $0 as! Wrapped } }
    public var objects: Set<ManagedObject> { map { [$0] } ?? [] }
}

extension Set: RelationshipValue where Element: ManagedObject {
    public static var destinationType: ManagedObject.Type { Element.self }
    public static var isToMany: Bool { true }
    public init(objects: Set<ManagedObject>) { self = Set(objects.map { $0 as! Element }) }
    public var objects: Set<ManagedObject> { Set<ManagedObject>(map { $0 as ManagedObject }) }
}

/// A relationship of a model class: `Destination?` (to-one) or `Set<Destination>` (to-many).
///
/// ```swift
/// @Relationship(inverse: "location", deleteRule: .cascade) var checkins: Set<Checkin>
/// @Relationship(inverse: "checkins", minCount: 1) var location: Location?
/// ```
///
/// Setting one side updates the inverse on the other side.
@propertyWrapper
public struct Relationship<Value: RelationshipValue>: PropertyWrapperBinding {
    let box = PropertyBox()
    let inverse: String?
    let deleteRule: DeleteRule
    let minCount: Int
    let maxCount: Int?
    let storageName: String?

    /// A relationship without an inverse, nullified on delete.
    public init() {
        self.init(inverse: nil)
    }

    /// Describes the relationship.
    ///
    /// - Parameters:
    ///   - inverse: the inverse relationship's property name on the destination.
    ///   - deleteRule: what deleting this object does to the destinations.
    ///   - minCount: the minimum number of destinations (1 makes a to-one required).
    ///   - maxCount: the maximum number of destinations of a to-many.
    ///   - storageName: the DynamoDB attribute name, when it differs from the property name.
    public init(
        inverse: String?, deleteRule: DeleteRule = .nullify, minCount: Int = 0, maxCount: Int? = nil,
        storageName: String? = nil
    ) {
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.storageName = storageName
    }

    /// Only usable inside a ``ManagedObject`` subclass.
    @available(*, unavailable, message: "@Relationship works only in ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the destinations through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get { Value(objects: object.relatedObjects(object[keyPath: storageKeyPath].box.name)) }
        set {
            let name = object[keyPath: storageKeyPath].box.name
            guard let relationship = object.entity.relationship(named: name) else {
                preconditionFailure("\(object.entity.path(name)) is not in the model")
            }
            object.setRelatedObjects(newValue.objects, for: relationship)
        }
    }

    func initialStoredValue() -> AttributeValue? { nil }

    func describe(into entity: inout EntityDescription) {
        entity.relationships.append(
            RelationshipDescription(
                box.name, to: Value.destinationType.entityName, inverse: inverse, toMany: Value.isToMany,
                deleteRule: deleteRule, minCount: minCount, maxCount: maxCount, storageName: storageName))
    }
}
