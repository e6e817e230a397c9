import DynamoAPI

/// An entity of the model: its properties and how it maps onto one DynamoDB table.
///
/// Every entity has a hash key attribute and may have a range key attribute (the table's
/// partition and sort key), an optional version attribute that saves use for optimistic
/// locking, and the table's secondary indexes, which the fetch planner may query.
public struct EntityDescription: Sendable, Hashable {
    /// The entity name.
    public var name: String
    /// The DynamoDB table holding the entity's objects (defaults to `name`).
    public var tableName: String
    /// The property name of the hash (partition) key attribute.
    public var hashKey: String
    /// The property name of the range (sort) key attribute, if the table has one.
    public var rangeKey: String?
    /// The property name of the `Int64` version attribute used for optimistic locking, if any.
    public var versionAttribute: String?
    /// The attributes, keys and version included.
    public var attributes: [AttributeDescription]
    /// The relationships.
    public var relationships: [RelationshipDescription]
    /// The table's secondary indexes.
    public var indexes: [IndexDescription]
    /// The attribute holding the object's expiry time in epoch seconds (an integer type), or
    /// `nil`. `createTables()` and `migrate()` turn DynamoDB's TTL on for it, and fetches leave
    /// out objects whose time has passed but which DynamoDB has not deleted yet (see
    /// ``FetchRequest/includesExpiredObjects``).
    public var expiryAttribute: String?
    /// The table's vector indexes (see ``EntityVectorIndex``), read by
    /// ``ObjectContext/fetchNearest(_:index:to:k:where:)``.
    public var vectorIndexes: [EntityVectorIndex] = []
    /// Seconds a deleted object's tombstone stays in the table, or `nil` (a deletion deletes
    /// the row). With it, a save's deletion writes the key, the version + 1,
    /// ``tombstoneAttribute`` (the deletion time) and the ``expiryAttribute`` (the deletion time
    /// plus the lifetime, so DynamoDB's TTL removes the tombstone then) in place of the row:
    /// devices that were away, and read or refresh the row, learn of the deletion. Every read
    /// of the store (faults, fetches, counts, refreshes, an offline store's cache) takes a
    /// tombstone as no row, and an insert may take its key.
    public var tombstoneLifetime: Int?

    /// The attribute that marks a tombstone row: the deletion time in epoch seconds.
    public static let tombstoneAttribute = "_deletedAt"

    /// Whether an item is a tombstone of this entity (see ``tombstoneLifetime``).
    func isTombstone(_ item: Item) -> Bool {
        tombstoneLifetime != nil && item[Self.tombstoneAttribute] != nil
    }

    /// Describes an entity.
    ///
    /// - Parameters:
    ///   - name: the entity name.
    ///   - tableName: the table name (defaults to `name`).
    ///   - hashKey: the hash key attribute's property name.
    ///   - rangeKey: the range key attribute's property name, if any.
    ///   - versionAttribute: the version attribute's property name, if any.
    ///   - attributes: the attributes (must include the keys and the version attribute).
    ///   - relationships: the relationships.
    ///   - indexes: the table's secondary indexes.
    public init(
        _ name: String, tableName: String? = nil, hashKey: String, rangeKey: String? = nil,
        versionAttribute: String? = nil, attributes: [AttributeDescription],
        relationships: [RelationshipDescription] = [], indexes: [IndexDescription] = []
    ) {
        self.name = name
        self.tableName = tableName ?? name
        self.hashKey = hashKey
        self.rangeKey = rangeKey
        self.versionAttribute = versionAttribute
        self.attributes = attributes
        self.relationships = relationships
        self.indexes = indexes
    }

    /// The attribute with this property name.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The relationship with this property name.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The index with this name.
    public func index(named name: String) -> IndexDescription? {
        indexes.first { $0.name == name }
    }

    /// The vector index with this name.
    public func vectorIndex(named name: String) -> EntityVectorIndex? {
        vectorIndexes.first { $0.name == name }
    }

    /// The property names of the primary key: the hash key, then the range key if any.
    public var keyAttributeNames: [String] {
        [hashKey] + (rangeKey.map { [$0] } ?? [])
    }
}
