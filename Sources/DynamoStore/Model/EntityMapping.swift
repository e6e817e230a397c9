import Synchronization

/// How a model class maps onto its DynamoDB table: what the property wrappers cannot say.
///
/// ```swift
/// override class var mapping: EntityMapping {
///     EntityMapping(hashKey: "id", version: "version", tableName: "AWS-Locations",
///                   indexes: [.global("byName", partitionKey: "name")])
/// }
/// ```
public struct EntityMapping: Sendable, Hashable {
    /// The hash key's property name (default `id`).
    public var hashKey: String
    /// The range key's property name, if any.
    public var rangeKey: String?
    /// The `Int64` version attribute's property name, for optimistic locking.
    public var versionAttribute: String?
    /// The table name (default: the entity name).
    public var tableName: String?
    /// The table's secondary indexes.
    public var indexes: [IndexDescription]
    /// The property holding the object's expiry time (an integer attribute of epoch seconds):
    /// DynamoDB's TTL attribute. See ``EntityDescription/expiryAttribute``.
    public var expiresAt: String?
    /// The table's vector indexes, read by ``ObjectContext/fetchNearest(_:index:to:k:where:)``.
    public var vectorIndexes: [EntityVectorIndex]
    /// How long a deleted object's tombstone stays in the table, or `nil` (deletions delete the
    /// row). See ``EntityDescription/tombstoneLifetime``; needs ``expiresAt``.
    public var tombstoneLifetime: Duration?

    /// Describes the mapping.
    ///
    /// - Parameters:
    ///   - hashKey: the hash key's property name.
    ///   - rangeKey: the range key's property name.
    ///   - version: the version attribute's property name.
    ///   - tableName: the table name.
    ///   - indexes: the secondary indexes.
    ///   - expiresAt: the expiry (TTL) attribute's property name, epoch seconds.
    ///   - vectorIndexes: the vector indexes.
    ///   - tombstoneLifetime: how long a deletion's tombstone row is kept (DynamoDB's TTL on
    ///     `expiresAt` removes it then); `nil` deletes rows.
    public init(
        hashKey: String = "id", rangeKey: String? = nil, version: String? = nil, tableName: String? = nil,
        indexes: [IndexDescription] = [], expiresAt: String? = nil, vectorIndexes: [EntityVectorIndex] = [],
        tombstoneLifetime: Duration? = nil
    ) {
        self.tombstoneLifetime = tombstoneLifetime
        self.vectorIndexes = vectorIndexes
        self.expiresAt = expiresAt
        self.hashKey = hashKey
        self.rangeKey = rangeKey
        versionAttribute = version
        self.tableName = tableName
        self.indexes = indexes
    }
}

private let derivedEntities = Mutex<[ObjectIdentifier: EntityDescription]>([:])

extension ManagedObject {
    /// The entity description of a model class, derived once from its `@Attribute` and
    /// `@Relationship` properties and its ``mapping``.
    public static var entityDescription: EntityDescription {
        if let cached = derivedEntities.withLock({ $0[ObjectIdentifier(self)] }) { return cached }
        let mapping = self.mapping
        var entity = EntityDescription(
            entityName, tableName: mapping.tableName, hashKey: mapping.hashKey, rangeKey: mapping.rangeKey,
            versionAttribute: mapping.versionAttribute, attributes: [], indexes: mapping.indexes)
        entity.expiryAttribute = mapping.expiresAt
        entity.vectorIndexes = mapping.vectorIndexes
        entity.tombstoneLifetime = mapping.tombstoneLifetime.map { Int($0.components.seconds) }
        let prototype = self.init()
        for property in prototype.properties { property.describe(into: &entity) }
        derivedEntities.withLock { $0[ObjectIdentifier(self)] = entity }
        return entity
    }
}

extension EntityDescription {
    /// The description of a model class (see ``ManagedObject/entityDescription``).
    ///
    /// - Parameter type: the model class.
    public init(for type: ManagedObject.Type) {
        self = type.entityDescription
    }
}
