import DynamoAPI
import DynamoTestSupport
import Foundation
import Synchronization
import Testing
@testable import DynamoClient

/// Idempotency tokens: filled once per call, the same on every retry, the caller's kept.
struct IdempotencyTokenTests {
    static let transaction = TransactWriteItemsInput(transactItems: [
        TransactWriteItem(
            update: Update(
                key: ["id": .s("counter")], updateExpression: "ADD n :one",
                tableName: "Counters", expressionAttributeValues: [":one": .n(DynamoNumber(1))]))
    ])

    /// The `ClientRequestToken` (or `ClientToken`) of a recorded request body.
    static func token(_ request: FakeHTTPServer.Request, member: String = "ClientRequestToken") throws -> String? {
        try JSONValue(parsing: Array(request.body.utf8)).objectValue?[member]?.stringValue
    }

    @Test func retryCarriesTheSameToken() async throws {
        try await withFakeServer([.error(500, "InternalServerError", "Internal server error"), .ok()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            _ = try await client.transactWriteItems(Self.transaction)
            let requests = server.requests
            #expect(requests.count == 2)
            let first = try Self.token(requests[0])
            #expect(first.map { UUID(uuidString: $0) != nil } == true)
            #expect(try Self.token(requests[1]) == first)
            #expect(requests[0].body == requests[1].body)
        }
    }

    @Test func eachCallGetsItsOwnToken() async throws {
        try await withFakeServer([.ok()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            _ = try await client.transactWriteItems(Self.transaction)
            _ = try await client.transactWriteItems(Self.transaction)
            let tokens = try server.requests.map { try Self.token($0) }
            #expect(tokens.count == 2)
            #expect(tokens[0] != nil && tokens[1] != nil && tokens[0] != tokens[1])
        }
    }

    @Test func callersTokenIsKept() async throws {
        try await withFakeServer([.ok()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            var input = Self.transaction
            input.clientRequestToken = "order-1234"
            _ = try await client.transactWriteItems(input)
            #expect(try Self.token(server.requests[0]) == "order-1234")
        }
    }

    @Test func everyTokenMemberOfTheModelIsFilled() async throws {
        try await withFakeServer([.ok()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            _ = try? await client.send(
                ExecuteTransactionInput(transactStatements: [
                    ParameterizedStatement(statement: "UPDATE Counters SET n = 1 WHERE id = 'a'")
                ]))
            _ = try? await client.send(
                ExportTableToPointInTimeInput(
                    tableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/Counters", s3Bucket: "bucket"))
            _ = try? await client.send(
                ImportTableInput(
                    s3BucketSource: S3BucketSource(s3Bucket: "bucket"), inputFormat: .dynamodbJson,
                    tableCreationParameters: TableCreationParameters(
                        tableName: "Imported", attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)],
                        keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)])))
            let requests = server.requests
            #expect(requests.count == 3)
            #expect(try Self.token(requests[0]) != nil)
            #expect(try Self.token(requests[1], member: "ClientToken") != nil)
            #expect(try Self.token(requests[2], member: "ClientToken") != nil)
            // Inputs without a token member are sent unchanged.
            _ = try? await client.listTables(ListTablesInput())
            #expect(server.requests.last?.body == "{}")
        }
    }

    /// LocalDynamo applies the first attempt, its response is lost (the transport reports a
    /// timeout), and the retry with the same token must not apply the transaction again.
    @Test func transactionWhoseResponseIsLostIsAppliedOnce() async throws {
        try await withTestServer { endpoint in
            let setup = endpoint.client()
            _ = try await setup.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)],
                    tableName: "Counters", keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)],
                    billingMode: .payPerRequest))
            let transport = LosingTransport(base: endpoint.transport, losing: 1)
            let client = try TestClients.client(endpoint: endpoint.url + "/", transport: transport)
            _ = try await client.transactWriteItems(Self.transaction)
            #expect(transport.sent == 2)
            let item = try await setup.getItem(GetItemInput(tableName: "Counters", key: ["id": .s("counter")], consistentRead: true))
            #expect(item.item?["n"] == .n(DynamoNumber(1)))
        }
    }
}

/// Sends every request, but reports the first `losing` responses as timed out.
final class LosingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let counts: Mutex<(sent: Int, toLose: Int)>

    init(base: any HTTPTransport, losing: Int) {
        self.base = base
        counts = Mutex((0, losing))
    }

    /// Requests that reached the server.
    var sent: Int { counts.withLock { $0.sent } }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        let response = try await base.send(request, timeouts: timeouts)
        let lose = counts.withLock { counts in
            counts.sent += 1
            guard counts.toLose > 0 else { return false }
            counts.toLose -= 1
            return true
        }
        if lose { throw TransportError(.timedOut, "response lost (test)") }
        return response
    }
}
