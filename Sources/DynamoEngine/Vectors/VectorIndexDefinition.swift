import DynamoAPI

/// A vector index as declared at CreateTable or UpdateTable (`VectorIndexes`,
/// `VectorIndexUpdates` Create): the third kind of index beside local and global ones, read
/// only by SearchVectors.
///
/// Its entries live in their own SQLite table (``VectorStore``), kept in the transaction of every
/// write like a global index's.
package struct VectorIndexDefinition: Codable, Sendable, Hashable {
    /// One element of the index's search schema, in the order the request gave them.
    package struct SearchAttribute: Codable, Sendable, Hashable {
        package var name: String
        /// `S`, `N` or `B`, from the table's attribute definitions.
        package var type: KeyScalarType
        /// `true` for the `HASH` element (the index's partition), `false` for an `INLINE_FILTER`.
        package var isHash: Bool
    }

    package var name: String
    /// The attribute holding the vector: a list (`L`) of `dimensions` numbers.
    package var vectorAttribute: String
    package var dimensions: Int
    /// `COSINE`, `EUCLIDEAN` or `DOT_PRODUCT`.
    package var distanceFunction: VectorDistanceFunction
    package var searchSchema: [SearchAttribute]
    /// `ALL`, `KEYS_ONLY` or `INCLUDE`.
    package var projectionType: ProjectionType
    package var nonKeyAttributes: [String]?
    /// Number of the SQLite table that holds the entries (`vec_<table>_<number>`), unique among
    /// the table's vector indexes for the table's life.
    package var storageNumber: Int
    /// When a backfill finishes on the server clock (an index added by UpdateTable to a table
    /// with items): until then it is CREATING with `Backfilling: true` and refuses searches.
    /// `nil` for an index that is ACTIVE.
    package var backfilledAt: Double? = nil

    /// Whether the index is still backfilling at `now`.
    package func isBackfilling(at now: Double) -> Bool {
        backfilledAt.map { now < $0 } ?? false
    }

    /// The `HASH` element of the search schema, if it has one.
    package var hashAttribute: SearchAttribute? { searchSchema.first { $0.isHash } }

    /// The `INLINE_FILTER` elements, in schema order.
    package var inlineFilters: [SearchAttribute] { searchSchema.filter { !$0.isHash } }

    /// The search schema as DescribeTable reports it.
    package var searchSchemaElements: [SearchSchemaElement]? {
        guard !searchSchema.isEmpty else { return nil }
        return searchSchema.map {
            SearchSchemaElement(attributeName: $0.name, searchSchemaElementType: $0.isHash ? .hash : .inlineFilter)
        }
    }

    /// The index as a `VectorIndex` shape (what backups keep and restores take back).
    package var shape: VectorIndex {
        VectorIndex(
            indexName: name, vectorAttribute: VectorAttributeDefinition(attributeName: vectorAttribute),
            searchSchema: searchSchemaElements,
            projection: Projection(projectionType: projectionType, nonKeyAttributes: nonKeyAttributes),
            dimensions: dimensions, distanceFunction: distanceFunction)
    }
}

extension TableDefinition {
    /// The vector index called `name`, if the table has one.
    package func vectorIndex(named name: String) -> VectorIndexDefinition? {
        vectorIndexes.first { $0.name == name }
    }
}
