/// A secondary index of an entity's table, which the fetch planner may query.
public struct IndexDescription: Sendable, Hashable {
    /// Global (own partition key) or local (the table's partition key, another sort key).
    public enum Kind: String, Sendable, Hashable {
        /// A global secondary index.
        case global
        /// A local secondary index.
        case local
    }

    /// Which attributes the index stores besides the keys.
    public enum Projection: Sendable, Hashable {
        /// Every attribute.
        case all
        /// Only the table and index keys.
        case keysOnly
        /// The keys and these attributes (property names).
        case include([String])
    }

    /// The index name.
    public var name: String
    /// Global or local.
    public var kind: Kind
    /// The partition key attributes, by property name (one, or up to four for a multi-attribute
    /// global index key). For a local index this is the table's hash key.
    public var partitionKey: [String]
    /// The sort key attributes, by property name (none, one, or up to four).
    public var sortKey: [String]
    /// The projected attributes.
    public var projection: Projection

    /// Describes a global secondary index.
    public static func global(
        _ name: String, partitionKey: [String], sortKey: [String] = [], projection: Projection = .all
    ) -> IndexDescription {
        IndexDescription(name: name, kind: .global, partitionKey: partitionKey, sortKey: sortKey, projection: projection)
    }

    /// Describes a global secondary index with a single partition key and optional sort key.
    public static func global(
        _ name: String, partitionKey: String, sortKey: String? = nil, projection: Projection = .all
    ) -> IndexDescription {
        global(name, partitionKey: [partitionKey], sortKey: sortKey.map { [$0] } ?? [], projection: projection)
    }

    /// Describes a local secondary index of an entity whose hash key is `hashKey`.
    public static func local(
        _ name: String, hashKey: String, sortKey: String, projection: Projection = .all
    ) -> IndexDescription {
        IndexDescription(name: name, kind: .local, partitionKey: [hashKey], sortKey: [sortKey], projection: projection)
    }

    /// Describes an index.
    public init(name: String, kind: Kind, partitionKey: [String], sortKey: [String], projection: Projection) {
        self.name = name
        self.kind = kind
        self.partitionKey = partitionKey
        self.sortKey = sortKey
        self.projection = projection
    }
}
