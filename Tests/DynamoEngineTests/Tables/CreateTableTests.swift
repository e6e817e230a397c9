import DynamoAPI
@testable import DynamoEngine
import Testing

/// CreateTable's checks at the engine that DynamoDB words as constraint violations.
@Suite struct CreateTableTests {
    @Test("a table key schema of three elements is refused as a constraint violation, with the elements listed")
    func keySchemaTooLong() throws {
        let database = try Database(path: nil, region: "us-east-1")
        let body = """
            {"TableName":"Things","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"},
              {"AttributeName":"extra","KeyType":"RANGE"}],
             "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
              {"AttributeName":"extra","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}
            """
        #expect(
            throws: DynamoError.validation(
                "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH), KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=extra, keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2"
            )
        ) {
            try database.createTable(CreateTableInput.decodeRequest(JSONValue(parsing: body)), now: 1_700_000_000)
        }
        #expect(database.tables.isEmpty)
    }
}
