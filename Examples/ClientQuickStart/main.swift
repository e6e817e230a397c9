// The DynamoClient quick start: run `localdynamo serve` (port 8000), then this.
// Not a package target; Tests/DynamoClientTests/Client/LocalDynamoTests.swift (readmeQuickStart)
// runs the same lines against an in-process server.
import DynamoAPI
import DynamoClient

struct Note: Codable { var id: String; var text: String }

let client = DynamoClient.local(port: 8000) // real AWS: let client = try DynamoClient()
_ = try await client.createTable(
    CreateTableInput(
        attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)],
        tableName: "Notes", keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)],
        billingMode: .payPerRequest))
try await client.put(Note(id: "1", text: "hello"), into: "Notes")
let note = try await client.get(Note.self, from: "Notes", key: ["id": .s("1")])
print(note?.text ?? "missing") // hello
