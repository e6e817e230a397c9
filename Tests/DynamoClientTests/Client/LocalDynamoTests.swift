import DynamoAPI
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoClient

/// The client against an in-process localdynamo on an ephemeral port.
struct LocalDynamoTests {
    static func notesTable(_ name: String = "Notes") -> CreateTableInput {
        CreateTableInput(
            attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)],
            tableName: name,
            keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)],
            billingMode: .payPerRequest)
    }

    struct Note: Codable, Equatable {
        var id: String
        var text: String
        var tags: DynamoSet<String>
        var created: Date
        var stars: Int?
    }

    @Test func tableAndItemLifecycle() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            let created = try await client.createTable(Self.notesTable())
            #expect(created.tableDescription?.tableName == "Notes")
            let table = try await client.waitUntilTableExists("Notes", delay: .milliseconds(50))
            #expect(table.tableStatus == .active)

            _ = try await client.putItem(PutItemInput(tableName: "Notes", item: ["id": .s("1"), "text": .s("hello")]))
            let got = try await client.getItem(GetItemInput(tableName: "Notes", key: ["id": .s("1")], consistentRead: true))
            #expect(got.item == ["id": .s("1"), "text": .s("hello")])

            let updated = try await client.updateItem(
                UpdateItemInput(
                    tableName: "Notes", key: ["id": .s("1")],
                    attributeUpdates: ["text": AttributeValueUpdate(value: .s("bye"), action: .put)],
                    returnValues: .allNew))
            #expect(updated.attributes?["text"] == .s("bye"))

            let deleted = try await client.deleteItem(DeleteItemInput(tableName: "Notes", key: ["id": .s("1")], returnValues: .allOld))
            #expect(deleted.attributes?["text"] == .s("bye"))
            #expect(try await client.getItem(GetItemInput(tableName: "Notes", key: ["id": .s("1")])).item == nil)

            _ = try await client.deleteTable(DeleteTableInput(tableName: "Notes"))
            try await client.waitUntilTableNotExists("Notes", delay: .milliseconds(50))
        }
    }

    @Test func codableRoundTripThroughServer() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            _ = try await client.createTable(Self.notesTable())
            let note = Note(
                id: "n1", text: "buy milk", tags: ["home", "todo"],
                created: Date(timeIntervalSince1970: 1_700_000_000.25), stars: nil)
            try await client.put(note, into: "Notes")
            let back = try await client.get(Note.self, from: "Notes", key: ["id": .s("n1")], consistentRead: true)
            #expect(back == note)
            #expect(try await client.get(Note.self, from: "Notes", key: ["id": .s("none")]) == nil)
        }
    }

    @Test func errorsCarryExactCodeAndMessage() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            let missing = await #expect(throws: DynamoError.self) {
                try await client.describeTable(DescribeTableInput(tableName: "Nope"))
            }
            #expect(missing?.code == .resourceNotFound)
            #expect(missing?.message == "Requested resource not found: Table: Nope not found")

            _ = try await client.createTable(Self.notesTable())
            let duplicate = await #expect(throws: DynamoError.self) { try await client.createTable(Self.notesTable()) }
            #expect(duplicate?.code == .resourceInUse)
            #expect(duplicate?.message == "Table already exists: Notes")

            let invalid = await #expect(throws: DynamoError.self) {
                try await client.listTables(ListTablesInput(limit: 0))
            }
            #expect(invalid?.code == .validation)
            #expect(
                invalid?.message == "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                    + "Member must have value greater than or equal to 1")
            // Validation errors are not retried: one request each, no tokens spent.
            #expect(client.availableRetryTokens == 500)
        }
    }

    @Test func listTablesPaginatorFollowsLastEvaluatedTableName() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            let names = (1...7).map { "Table\($0)" }
            for name in names { _ = try await client.createTable(Self.notesTable(name)) }
            var pages: [[String]] = []
            for try await page in client.listTablesPages(ListTablesInput(limit: 3)) {
                pages.append(page.tableNames ?? [])
            }
            #expect(pages.map(\.count) == [3, 3, 1])
            #expect(pages.flatMap { $0 } == names.sorted())
        }
    }

    @Test func describeLimitsAndTags() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            let limits = try await client.describeLimits(DescribeLimitsInput())
            #expect((limits.tableMaxReadCapacityUnits ?? 0) > 0)
            let table = try await client.createTable(Self.notesTable())
            let arn = try #require(table.tableDescription?.tableArn)
            _ = try await client.tagResource(TagResourceInput(resourceArn: arn, tags: [Tag(key: "team", value: "core")]))
            let tags = try await client.listTagsOfResource(ListTagsOfResourceInput(resourceArn: arn))
            #expect(tags.tags == [Tag(key: "team", value: "core")])
        }
    }

    struct QuickNote: Codable {
        var id: String
        var text: String
    }

    /// The README's quick start (Examples/ClientQuickStart), line for line but for the port.
    @Test func readmeQuickStart() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            _ = try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)],
                    tableName: "Notes", keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)],
                    billingMode: .payPerRequest))
            try await client.put(QuickNote(id: "1", text: "hello"), into: "Notes")
            let note = try await client.get(QuickNote.self, from: "Notes", key: ["id": .s("1")])
            #expect(note?.text == "hello")
        }
    }
}
