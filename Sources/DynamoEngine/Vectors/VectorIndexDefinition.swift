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
    /// The earliest moment of the server clock a backfill (an index added by UpdateTable to a
    /// table with items) may end: until then the index is CREATING with `Backfilling: true` and
    /// refuses searches, however soon its entries are built. `nil` for an index created with
    /// its table or on an empty one.
    package var backfilledAt: Double? = nil
    /// `true` while the index's entries are still being built from the table's items, chunk by
    /// chunk in the background (`Database.vectorBackfillStep`): the index is CREATING with
    /// `Backfilling: true` until the last chunk clears it. `nil` otherwise (an optional member,
    /// so a catalog written before it reads unchanged).
    package var building: Bool? = nil

    /// Whether the index is still backfilling at `now`: its entries are being built, or the
    /// clock has not reached ``backfilledAt``.
    package func isBackfilling(at now: Double) -> Bool {
        building == true || backfilledAt.map { now < $0 } ?? false
    }

    /// The index as a table filled by writing every item leaves it (a restore, a new replica):
    /// every entry written with its item, nothing to build or to wait for.
    var filled: VectorIndexDefinition {
        var index = self
        index.building = nil
        index.backfilledAt = nil
        return index
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
