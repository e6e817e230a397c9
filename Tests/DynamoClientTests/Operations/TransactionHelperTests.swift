import DynamoAPI
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoClient

/// `transactWrite`: one idempotency token for every round, rounds repeated only for what a
/// later round can fix.
struct TransactionHelperTests {
    static let items = [TransactWriteItem(put: Put(item: ["id": .s("1")], tableName: "t"))]

    private func tokens(_ server: FakeHTTPServer) -> [String] {
        server.requests.compactMap { request in
            guard let range = request.body.range(of: #""ClientRequestToken":""#) else { return nil }
            return String(request.body[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func theTokenIsReusedAcrossRounds() async throws {
        try await withFakeServer([
            .error(400, "TransactionInProgressException", "in progress"),
            .respond(
                status: 400,
                body:
                    #"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"Transaction cancelled","CancellationReasons":[{"Code":"None"},{"Code":"TransactionConflict","Message":"Transaction is ongoing for the item"}]}"#
            ),
            .ok(),
        ]) { server in
            let client = try TestClients.client(endpoint: server.url, retry: SleepRecorder().retry(attempts: 1))
            _ = try await client.transactWrite(Self.items, maximumRounds: 3)
            let tokens = tokens(server)
            #expect(tokens.count == 3)
            #expect(Set(tokens).count == 1)
            #expect(tokens[0].count == 36)
        }
    }

    @Test func aFailedConditionEndsTheCallAtOnce() async throws {
        let body =
            #"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"Transaction cancelled","CancellationReasons":[{"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}]}"#
        try await withFakeServer([.respond(status: 400, body: body), .ok()]) { server in
            let client = try TestClients.client(endpoint: server.url, retry: SleepRecorder().retry(attempts: 1))
            await #expect(throws: DynamoError.self) { try await client.transactWrite(Self.items, clientRequestToken: "mine") }
            #expect(server.requests.count == 1)
            #expect(tokens(server) == ["mine"])
        }
    }

    @Test func appliesOnceThroughLocalDynamo() async throws {
        try await withTestServer { endpoint in
            let client = try await LocalTables.client(endpoint, table: "Accounts")
            _ = try await client.putItem(PutItemInput(tableName: "Accounts", item: ["id": .s("a"), "balance": .n(DynamoNumber(10))]))
            let items = [
                TransactWriteItem(
                    update: try Update(
                        key: ["id": .s("a")], tableName: "Accounts",
                        update: .set("balance", .subtract(3)),
                        condition: ConditionExpression.attribute("balance") >= 3))
            ]
            _ = try await client.transactWrite(items, clientRequestToken: "same-token")
            // The same token again (a retry after a lost answer) is not applied twice.
            _ = try await client.transactWrite(items, clientRequestToken: "same-token")
            let balance = try await client.getItem(GetItemInput(tableName: "Accounts", key: ["id": .s("a")])).item?["balance"]
            #expect(balance == .n(DynamoNumber(7)))
        }
    }
}
