import DynamoAPI
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoClient

/// One client scenario run unchanged against localdynamo and against moto's server: two
/// implementations of DynamoDB, only the endpoint differs.
struct SharedScenarioTests {
    struct Book: Codable, Equatable {
        var isbn: String
        var title: String
        var authors: [String]
        var genres: DynamoSet<String>
        var published: Date
        var pages: Int
        var price: Double?
    }

    /// Tables, items through the Codable layer, error codes, the ListTables paginator, waiters.
    static func scenario(_ client: DynamoClient) async throws {
        let prefix = "scenario\(UInt32.random(in: 0...UInt32.max))"
        let books = prefix + "-books"
        _ = try await client.createTable(
            CreateTableInput(
                attributeDefinitions: [AttributeDefinition(attributeName: "isbn", attributeType: .s)],
                tableName: books, keySchema: [KeySchemaElement(attributeName: "isbn", keyType: .hash)],
                billingMode: .payPerRequest))
        let table = try await client.waitUntilTableExists(books, delay: .milliseconds(100), maximumAttempts: 50)
        #expect(table.keySchema == [KeySchemaElement(attributeName: "isbn", keyType: .hash)])

        let book = Book(
            isbn: "978-0", title: "Structure and Interpretation", authors: ["Abelson", "Sussman"],
            genres: ["cs", "lisp"], published: Date(timeIntervalSince1970: 473_385_600), pages: 657, price: 55.5)
        try await client.put(book, into: books)
        #expect(try await client.get(Book.self, from: books, key: ["isbn": .s("978-0")], consistentRead: true) == book)

        let updated = try await client.updateItem(
            UpdateItemInput(
                tableName: books, key: ["isbn": .s("978-0")],
                attributeUpdates: ["pages": AttributeValueUpdate(value: .n(DynamoNumber(658)), action: .put)],
                returnValues: .updatedNew))
        #expect(updated.attributes == ["pages": .n(DynamoNumber(658))])

        let duplicate = await #expect(throws: DynamoError.self) {
            try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "isbn", attributeType: .s)],
                    tableName: books, keySchema: [KeySchemaElement(attributeName: "isbn", keyType: .hash)],
                    billingMode: .payPerRequest))
        }
        #expect(duplicate?.code == .resourceInUse)
        let missing = await #expect(throws: DynamoError.self) {
            try await client.describeTable(DescribeTableInput(tableName: prefix + "-missing"))
        }
        #expect(missing?.code == .resourceNotFound)

        for index in 1...4 {
            _ = try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "k", attributeType: .s)],
                    tableName: "\(prefix)-extra\(index)", keySchema: [KeySchemaElement(attributeName: "k", keyType: .hash)],
                    billingMode: .payPerRequest))
        }
        var names: [String] = []
        var pageCount = 0
        for try await page in client.listTablesPages(ListTablesInput(limit: 2)) {
            #expect((page.tableNames ?? []).count <= 2)
            names += page.tableNames ?? []
            pageCount += 1
        }
        #expect(names.filter { $0.hasPrefix(prefix) }.sorted() == ([books] + (1...4).map { "\(prefix)-extra\($0)" }).sorted())
        #expect(pageCount >= 3)

        let deleted = try await client.deleteItem(DeleteItemInput(tableName: books, key: ["isbn": .s("978-0")], returnValues: .allOld))
        #expect(deleted.attributes?["title"] == .s(book.title))
        #expect(try await client.get(Book.self, from: books, key: ["isbn": .s("978-0")], consistentRead: true) == nil)

        for name in names where name.hasPrefix(prefix) {
            _ = try await client.deleteTable(DeleteTableInput(tableName: name))
        }
        try await client.waitUntilTableNotExists(books, delay: .milliseconds(100), maximumAttempts: 50)
    }

    @Test func againstLocalDynamo() async throws {
        try await withTestServer { endpoint in
            try await Self.scenario(endpoint.client())
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func againstMoto() async throws {
        try await MotoServer.with { url in
            try await Self.scenario(TestClients.client(endpoint: url))
        }
    }
}
