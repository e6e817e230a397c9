import DynamoAPI
@testable import DynamoEngine

/// Tables with vector indexes and the requests the vector tests send.
enum VectorFixtures {
    /// A vector as DynamoDB stores it: a list of numbers.
    static func vector(_ values: [Float]) -> AttributeValue {
        .l(values.map { .n(number($0)) })
    }

    /// A number of the float's shortest decimal text.
    static func number(_ value: Float) -> DynamoNumber {
        // The fixtures' floats print as plain decimals or with an exponent DynamoDB accepts.
        try! DynamoNumber(parsing: "\(value)")
    }

    /// A search vector: the numbers themselves.
    static func search(_ values: [Float]) -> [AttributeValue] {
        values.map { .n(number($0)) }
    }

    static func index(
        _ name: String = "vix", attribute: String = "emb", dimensions: Int, function: VectorDistanceFunction = .cosine,
        schema: [(String, SearchSchemaElementType)] = [], projection: Projection = Projection(projectionType: .all)
    ) -> VectorIndex {
        VectorIndex(
            indexName: name, vectorAttribute: VectorAttributeDefinition(attributeName: attribute),
            searchSchema: schema.isEmpty ? nil : schema.map { SearchSchemaElement(attributeName: $0.0, searchSchemaElementType: $0.1) },
            projection: projection, dimensions: dimensions, distanceFunction: function)
    }

    /// An on-demand table `Vectors` keyed `pk` (S) with `indexes`; `definitions` adds string
    /// attribute definitions (search-schema attributes).
    static func makeTable(_ database: Database, indexes: [VectorIndex], definitions: [String] = [], billing: BillingMode = .payPerRequest) throws {
        let attributes = (["pk"] + definitions).map { AttributeDefinition(attributeName: $0, attributeType: .s) }
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: attributes, tableName: "Vectors",
                keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)], billingMode: billing,
                provisionedThroughput: billing == .provisioned ? ProvisionedThroughput(readCapacityUnits: 1, writeCapacityUnits: 1) : nil,
                vectorIndexes: indexes),
            now: database.clock.now())
    }

    /// The keys and scores of a search.
    static func keys(_ output: SearchVectorsOutput) -> [String] {
        (output.searchResults ?? []).map { result in
            guard case .s(let key)? = result.item?["pk"] else { return "?" }
            return key
        }
    }
}
