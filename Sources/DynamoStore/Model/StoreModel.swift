/// A model that the model checks refused, with every problem found (not just the first).
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line per problem, e.g. `Checkin.location: destination entity 'Place' is not in the model`.
    public var problems: [String]

    /// Makes the error from its problems.
    public init(problems: [String]) {
        self.problems = problems
    }

    /// `invalid model: ` and the problems, separated by `; `.
    public var description: String {
        "invalid model: " + problems.joined(separator: "; ")
    }
}

/// The entities an app stores, checked for consistency when it is made.
public struct StoreModel: Sendable, Hashable {
    /// The entities, in declaration order.
    public let entities: [EntityDescription]

    /// Makes a model from its entities.
    ///
    /// - Throws: `ModelError` listing every inconsistency: duplicate entity or property names,
    ///   a missing or unusable key attribute, a version attribute that is not an `Int64`, an
    ///   unknown relationship destination, an inverse that is missing or does not point back,
    ///   an index key that is not a string, number or data attribute or a to-one relationship,
    ///   two entities sharing a table, a vector index whose attribute is not a `[Float]` or
    ///   `[Double]` attribute or whose search schema is not of key-typed properties.
    public init(_ entities: [EntityDescription]) throws(ModelError) {
        let problems = Self.problems(in: entities)
        guard problems.isEmpty else { throw ModelError(problems: problems) }
        self.entities = entities
    }

    /// The entity with this name.
    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }

    private static func problems(in entities: [EntityDescription]) -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        var tables: [String: String] = [:]
        for entity in entities {
            if !names.insert(entity.name).inserted {
                problems.append("\(entity.name): the model declares this entity twice")
            }
            if let other = tables.updateValue(entity.name, forKey: entity.tableName) {
                problems.append("\(entity.name): table '\(entity.tableName)' is also the table of \(other)")
            }
            problems += propertyProblems(entity)
            problems += relationshipProblems(entity, in: entities)
            problems += indexProblems(entity, in: entities)
            problems += vectorIndexProblems(entity, in: entities)
        }
        return problems
    }

    private static func propertyProblems(_ entity: EntityDescription) -> [String] {
        var problems: [String] = []
        var propertyNames: Set<String> = []
        var storageNames: Set<String> = []
        let properties =
            entity.attributes.map { ($0.name, $0.storageName) }
            + entity.relationships.map { ($0.name, $0.storageName) }
        for (name, storageName) in properties {
            if !propertyNames.insert(name).inserted {
                problems.append("\(entity.name).\(name): declared twice")
            }
            if !storageNames.insert(storageName).inserted {
                problems.append("\(entity.name).\(name): storage name '\(storageName)' is used twice")
            }
        }
        if entity.tombstoneLifetime != nil && entity.expiryAttribute == nil {
            problems.append("\(entity.name): tombstones need an expiry (TTL) attribute (EntityMapping's expiresAt) to expire by")
        }
        if let expiry = entity.expiryAttribute {
            let type = entity.attribute(named: expiry)?.type
            if ![AttributeType.int16, .int32, .int64].contains(type) {
                problems.append("\(entity.name).\(expiry): the expiry (TTL) attribute must be an integer attribute of epoch seconds")
            }
        }
        for key in entity.keyAttributeNames {
            guard let attribute = entity.attribute(named: key) else {
                problems.append("\(entity.name).\(key): key attribute is not an attribute of the entity")
                continue
            }
            if attribute.type.keyScalarType == nil {
                problems.append("\(entity.name).\(key): a \(attribute.type.rawValue) attribute cannot be a key")
            }
            if attribute.isOptional {
                problems.append("\(entity.name).\(key): a key attribute cannot be optional")
            }
        }
        if let version = entity.versionAttribute {
            let attribute = entity.attribute(named: version)
            if attribute?.type != .int64 || attribute?.isOptional == true {
                problems.append("\(entity.name).\(version): the version attribute must be a non-optional int64 attribute")
            }
        }
        return problems
    }

    private static func relationshipProblems(_ entity: EntityDescription, in entities: [EntityDescription]) -> [String] {
        var problems: [String] = []
        for relationship in entity.relationships {
            let path = "\(entity.name).\(relationship.name)"
            guard let destination = entities.first(where: { $0.name == relationship.destination }) else {
                problems.append("\(path): destination entity '\(relationship.destination)' is not in the model")
                continue
            }
            if destination.rangeKey != nil {
                problems.append("\(path): destination '\(destination.name)' has a range key; relationships store a single key")
            }
            if let maxCount = relationship.maxCount, maxCount < relationship.minCount {
                problems.append("\(path): maxCount \(maxCount) is below minCount \(relationship.minCount)")
            }
            guard let inverseName = relationship.inverse else { continue }
            guard let inverse = destination.relationship(named: inverseName) else {
                problems.append("\(path): inverse '\(inverseName)' is not a relationship of \(destination.name)")
                continue
            }
            if inverse.destination != entity.name || inverse.inverse != relationship.name {
                problems.append("\(path): inverse \(destination.name).\(inverseName) does not point back")
            }
        }
        return problems
    }

    private static func indexProblems(_ entity: EntityDescription, in entities: [EntityDescription]) -> [String] {
        var problems: [String] = []
        var indexNames: Set<String> = []
        for index in entity.indexes {
            let path = "\(entity.name) index \(index.name)"
            if !indexNames.insert(index.name).inserted {
                problems.append("\(path): declared twice")
            }
            let maxKeyParts = index.kind == .global ? 4 : 1
            if index.partitionKey.isEmpty || index.partitionKey.count > maxKeyParts {
                problems.append("\(path): needs 1 to \(maxKeyParts) partition key attributes")
            }
            if index.sortKey.count > maxKeyParts || (index.kind == .local && index.sortKey.count != 1) {
                problems.append("\(path): needs \(index.kind == .local ? "exactly 1" : "0 to 4") sort key attributes")
            }
            if index.kind == .local && index.partitionKey != [entity.hashKey] {
                problems.append("\(path): a local index's partition key is the table's hash key '\(entity.hashKey)'")
            }
            for key in index.partitionKey + index.sortKey {
                if let relationship = entity.relationship(named: key) {
                    // A to-one relationship stores the destination's key: a scalar, so a valid
                    // index key. A to-many stores a set, which DynamoDB cannot index. (An
                    // unknown destination is reported with the relationships.)
                    let known = entities.contains { $0.name == relationship.destination }
                    if relationship.isToMany {
                        problems.append(
                            "\(path): key '\(key)' is a to-many relationship, which is stored as a set; an index key must be an attribute or a to-one relationship"
                        )
                    } else if known && keyScalarType(of: relationship, in: entities) == nil {
                        problems.append(
                            "\(path): key '\(key)' is a relationship to \(relationship.destination), whose hash key cannot be an index key")
                    }
                    continue
                }
                guard let attribute = entity.attribute(named: key) else {
                    problems.append("\(path): key '\(key)' is not an attribute or to-one relationship of \(entity.name)")
                    continue
                }
                if attribute.type.keyScalarType == nil {
                    problems.append("\(path): a \(attribute.type.rawValue) attribute cannot be an index key")
                }
            }
            if case .include(let names) = index.projection {
                for name in names where entity.attribute(named: name) == nil && entity.relationship(named: name) == nil {
                    problems.append("\(path): projected property '\(name)' is not a property of \(entity.name)")
                }
            }
        }
        return problems
    }

    /// The scalar type (`S`, `N`, `B`) a to-one relationship stores: its destination's hash
    /// key's. `nil` for a to-many relationship or an unknown destination.
    static func keyScalarType(of relationship: RelationshipDescription, in entities: [EntityDescription]) -> String? {
        guard !relationship.isToMany, let destination = entities.first(where: { $0.name == relationship.destination }),
            let key = destination.attribute(named: destination.hashKey)
        else { return nil }
        return key.type.keyScalarType
    }
}
