import DynamoAPI
import DynamoEngine

/// SearchVectors: the nearest items of a vector index, exactly; on the pool (a search scores
/// every entry of the partition it reads).
extension OperationRows {
    static let searchVectors = OperationRow(
        .pool, touches: { (input: SearchVectorsInput) in OperationTouches(tables: [input.tableName], index: input.indexName) },
        run: { input, context in try context.database.searchVectors(input) })
}
