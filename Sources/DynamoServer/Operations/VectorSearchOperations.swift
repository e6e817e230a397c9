import DynamoAPI
import DynamoEngine

/// SearchVectors: the nearest items of a vector index (not answered yet).
extension OperationRows {
    static let searchVectors = notYet(SearchVectorsInput.self, SearchVectorsOutput.self)
}
