/// The service's numeric limits on vector indexes (developer guide: "Creating and searching
/// vector indexes", the troubleshooting table, and the SearchVectors API reference).
package enum VectorIndexRules {
    /// Vector indexes per table ("up to the per-table limit of five").
    package static let maximumPerTable = 5
    /// Largest `Dimensions` ("DynamoDB supports up to 4,096 dimensions"; also `SearchVector`'s
    /// model length limit).
    package static let maximumDimensions = 4096
    /// Largest `TopK` ("TopK was outside 1 to 100").
    package static let maximumTopK = 100
    /// Largest SearchVectors response ("SearchVectors responses are limited to 16 MB").
    package static let maximumResponseBytes = 16 * 1024 * 1024
}
