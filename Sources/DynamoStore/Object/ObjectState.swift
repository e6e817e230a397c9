import DynamoAPI

/// An object's values as last read from (or written to) the store: attributes by property
/// name in their DynamoDB form, relationships as the identities of their destinations.
struct Snapshot: Hashable {
    var attributes: [String: AttributeValue] = [:]
    var relationships: [String: Set<ObjectID>] = [:]

    /// The snapshot of a stored item. Values read from the store are `checked`: one that does
    /// not decode as its attribute's type throws, naming the attribute; what this context just
    /// wrote is taken as it is.
    init(item: Item, entity: EntityDescription, model: StoreModel, checked: Bool = true) throws(StoreError) {
        for attribute in entity.attributes {
            guard let value = item[attribute.storageName], value != .null else { continue }
            if checked { try Self.check(value, of: attribute, in: entity) }
            attributes[attribute.name] = value
        }
        for relationship in entity.relationships {
            guard let stored = item[relationship.storageName], stored != .null else { continue }
            let destination = try model.destination(of: relationship, in: entity)
            let keyName = try destination.hashKeyStorageName
            let keys: [AttributeValue] =
                switch stored {
                case .s, .n, .b: [stored]
                case .ss(let values): values.map { .s($0) }
                case .ns(let values): values.map { .n($0) }
                case .bs(let values): values.map { .b($0) }
                default: throw .undecodableValue("\(entity.name).\(relationship.name): \(stored.typeDescriptor) is not a key or a set of keys")
                }
            relationships[relationship.name] = Set(keys.map { ObjectID(entityName: destination.name, key: [keyName: $0]) })
        }
    }

    init() {}

    /// Throws when a stored value does not decode as its attribute's type, naming the attribute.
    private static func check(_ value: AttributeValue, of attribute: AttributeDescription, in entity: EntityDescription) throws(StoreError) {
        do { _ = try StoredValueCodec.decode(value, for: attribute) } catch {
            let detail = if case .undecodableValue(let detail) = error { detail } else { error.description }
            throw .undecodableValue("\(entity.path(attribute.name)): \(detail)")
        }
    }

    /// The version the snapshot holds, if the entity has a version attribute.
    func version(of entity: EntityDescription) -> Int64? {
        guard let name = entity.versionAttribute, let value = attributes[name] else { return nil }
        return try? Int64(storedValue: value)
    }
}

/// A change made to a property since the snapshot.
enum PendingValue {
    /// An attribute's new value (`nil`: removed).
    case attribute(AttributeValue?)
    /// A relationship's new destinations (to-one: zero or one).
    case objects(Set<ManagedObject>)
    /// Destinations added and removed on a fault, whose current destinations are not known
    /// until it fires (inverse maintenance from the other side).
    case delta(added: Set<ManagedObject>, removed: Set<ManagedObject>)
}

/// Where an object is in its life.
enum Lifecycle {
    /// Made with `init()` and not inserted yet.
    case detached
    /// Inserted into a context, not saved.
    case inserted
    /// Read from (or saved to) the store and registered in a context.
    case stored
    /// Forgotten by its context (reset, or saved as deleted).
    case invalid
}

extension StoreModel {
    /// The destination entity of a relationship.
    func destination(of relationship: RelationshipDescription, in entity: EntityDescription) throws(StoreError) -> EntityDescription {
        guard let destination = self.entity(named: relationship.destination) else {
            throw .unknownEntity("\(relationship.destination) (destination of \(entity.name).\(relationship.name))")
        }
        return destination
    }
}

extension EntityDescription {
    /// The DynamoDB attribute name of the version attribute, if the entity has one.
    var versionStorageName: String? {
        versionAttribute.flatMap { attribute(named: $0)?.storageName }
    }

    /// The DynamoDB attribute name of the hash key.
    var hashKeyStorageName: String {
        get throws(StoreError) {
            guard let attribute = attribute(named: hashKey) else { throw .unknownProperty("\(name).\(hashKey)") }
            return attribute.storageName
        }
    }

    /// The key attributes' descriptions, hash key first.
    var keyAttributes: [AttributeDescription] {
        keyAttributeNames.compactMap { attribute(named: $0) }
    }

    /// The attribute or relationship path `Entity.name`, for messages.
    func path(_ property: String) -> String { "\(name).\(property)" }
}
