import DynamoAPI
import DynamoClient
import DynamoTestSupport

enum LocalTables {
    /// A client of the in-process server at `endpoint` with an on-demand table `name` keyed by
    /// the string `id`.
    static func client(_ endpoint: TestEndpoint, table name: String) async throws -> DynamoClient {
        let client = endpoint.client()
        _ = try await client.createTable(
            CreateTableInput(
                attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)], tableName: name,
                keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)], billingMode: .payPerRequest))
        return client
    }
}
