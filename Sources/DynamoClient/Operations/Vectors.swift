import DynamoAPI

/// Vectors as DynamoDB stores them for a vector index: a list (`L`) of numbers (`N`).
///
/// A vector index reads its attribute at `Float` precision, so a `[Float]` is written with each
/// component's shortest text that reads back as the same `Float`; a `[Double]` keeps its own.
/// `Codable` models need nothing of this: an `[Float]` or `[Double]` property encodes as such a
/// list through ``ItemEncoder``.
///
/// ```swift
/// let embedding: [Float] = [0.12, -0.5, 0.33]
/// var put = PutItemInput(tableName: "Notes", item: ["id": .s("n1"), "embedding": try .vector(embedding)])
/// let search = try SearchVectorsInput(tableName: "Notes", indexName: "embedding-index", vector: embedding, topK: 5)
/// ```
extension AttributeValue {
    /// A list of numbers holding `components` (`[Float]`, `[Double]`), each in its shortest
    /// text that reads back as the same value.
    ///
    /// - Throws: `DynamoError` (`ValidationException`) when a component is not finite.
    public static func vector<Component: BinaryFloatingPoint & LosslessStringConvertible>(
        _ components: [Component]
    ) throws(DynamoError) -> AttributeValue {
        var list: [AttributeValue] = []
        list.reserveCapacity(components.count)
        for component in components { list.append(.n(try DynamoNumber(parsing: "\(component)"))) }
        return .l(list)
    }

    /// The components of a list of numbers at `Float` precision, as a vector index reads them;
    /// `nil` for any other value (a list holding anything but numbers included).
    public var vectorComponents: [Float]? {
        guard case .l(let list) = self else { return nil }
        var components: [Float] = []
        components.reserveCapacity(list.count)
        for element in list {
            guard case .n(let number) = element, let component = Float(number.description), component.isFinite else { return nil }
            components.append(component)
        }
        return components
    }
}

extension SearchVectorsInput {
    /// A search for the `topK` items of `indexName` nearest `vector`.
    ///
    /// - Throws: `DynamoError` (`ValidationException`) when a component is not finite.
    public init(tableName: String, indexName: String, vector: [Float], topK: Int) throws(DynamoError) {
        guard case .l(let components) = try AttributeValue.vector(vector) else { preconditionFailure("a vector is a list") }
        self.init(tableName: tableName, indexName: indexName, searchVector: components, topK: topK)
    }
}
