/// A vector index of an entity's table, read by ``ObjectContext/fetchNearest(_:index:to:k:where:)``.
///
/// DynamoDB keeps the index over one `[Float]` or `[Double]` attribute (stored as a list of
/// numbers): every object whose vector has ``dimensions`` components is in it. Its search schema
/// is an optional ``partitionKey`` (DynamoDB's `HASH` element: every search must name one value
/// of it, and only objects with that value are searched) and ``filters`` (`INLINE_FILTER`
/// elements: a search may ask for one value of each). `createTables()` and `migrate()` create it
/// with the table (`CreateTable` `VectorIndexes`) or on an existing table (`UpdateTable`
/// `VectorIndexUpdates`), on-demand tables only, as DynamoDB requires.
///
/// ```swift
/// override class var mapping: EntityMapping {
///     EntityMapping(vectorIndexes: [
///         .vector("byEmbedding", attribute: "embedding", dimensions: 384, distance: .cosine,
///                 partitionKey: "owner", filters: ["kind"])
///     ])
/// }
/// ```
public struct EntityVectorIndex: Sendable, Hashable {
    /// How a vector index scores a candidate against the search vector (DynamoDB's
    /// `DistanceFunction`), computed at `Float` precision.
    public enum Distance: String, Sendable, Hashable, CaseIterable {
        /// `COSINE`: 1 − cos(a, b), from 0 (same direction) to 2 (opposite); smallest first.
        case cosine = "COSINE"
        /// `EUCLIDEAN`: ‖a − b‖; smallest first.
        case euclidean = "EUCLIDEAN"
        /// `DOT_PRODUCT`: a · b; largest first.
        case dotProduct = "DOT_PRODUCT"
    }

    /// The index name.
    public var name: String
    /// The vector attribute's property name (a `[Float]` or `[Double]` attribute).
    public var attribute: String
    /// The number of components of every indexed vector (1…4,096).
    public var dimensions: Int
    /// The distance function.
    public var distance: Distance
    /// The property of the search schema's `HASH` element, if any: a string, number or data
    /// attribute or a to-one relationship. A search must give its value; an object without it
    /// is not in the index.
    public var partitionKey: String?
    /// The properties of the search schema's `INLINE_FILTER` elements (string, number or data
    /// attributes, or to-one relationships): a search may ask for one value of each.
    public var filters: [String]
    /// What the index's results hold: with ``IndexDescription/Projection/all`` the objects come
    /// back loaded, otherwise as faults.
    public var projection: IndexDescription.Projection

    /// Describes a vector index.
    ///
    /// - Parameters:
    ///   - name: the index name.
    ///   - attribute: the `[Float]` or `[Double]` property it indexes.
    ///   - dimensions: the vectors' number of components.
    ///   - distance: the distance function (default cosine).
    ///   - partitionKey: the property every search restricts to one value of, if any.
    ///   - filters: properties a search may restrict to one value of.
    ///   - projection: what results hold (default every attribute).
    public static func vector(
        _ name: String, attribute: String, dimensions: Int, distance: Distance = .cosine, partitionKey: String? = nil,
        filters: [String] = [], projection: IndexDescription.Projection = .all
    ) -> EntityVectorIndex {
        EntityVectorIndex(
            name: name, attribute: attribute, dimensions: dimensions, distance: distance, partitionKey: partitionKey,
            filters: filters, projection: projection)
    }

    /// Describes a vector index (see ``vector(_:attribute:dimensions:distance:partitionKey:filters:projection:)``).
    public init(
        name: String, attribute: String, dimensions: Int, distance: Distance, partitionKey: String?, filters: [String],
        projection: IndexDescription.Projection
    ) {
        self.name = name
        self.attribute = attribute
        self.dimensions = dimensions
        self.distance = distance
        self.partitionKey = partitionKey
        self.filters = filters
        self.projection = projection
    }

    /// The search schema's properties: the partition key (if any), then the filters.
    public var searchSchemaProperties: [String] { (partitionKey.map { [$0] } ?? []) + filters }
}
