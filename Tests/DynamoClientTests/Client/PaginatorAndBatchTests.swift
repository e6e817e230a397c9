import DynamoAPI
import Foundation
import Testing
@testable import DynamoClient

/// Paginators and batch helpers against scripted responses: what each follow-up request
/// carries, and that leftovers are resubmitted.
struct PaginatorAndBatchTests {
    @Test func scanItemsFollowsLastEvaluatedKey() async throws {
        try await withFakeServer([
            .ok(#"{"Items":[{"id":{"S":"a"}},{"id":{"S":"b"}}],"LastEvaluatedKey":{"id":{"S":"b"}}}"#),
            .ok(#"{"Items":[],"LastEvaluatedKey":{"id":{"S":"b2"}}}"#),
            .ok(#"{"Items":[{"id":{"S":"c"}}]}"#),
        ]) { server in
            let client = try TestClients.client(endpoint: server.url)
            var ids: [AttributeValue?] = []
            for try await item in client.scanItems(ScanInput(tableName: "t", limit: 2)) { ids.append(item["id"]) }
            #expect(ids == [.s("a"), .s("b"), .s("c")])
            let bodies = server.requests.map(\.body)
            #expect(
                bodies == [
                    #"{"TableName":"t","Limit":2}"#,
                    #"{"TableName":"t","Limit":2,"ExclusiveStartKey":{"id":{"S":"b"}}}"#,
                    #"{"TableName":"t","Limit":2,"ExclusiveStartKey":{"id":{"S":"b2"}}}"#,
                ])
        }
    }

    @Test func queryPagesStopWithoutLastEvaluatedKey() async throws {
        try await withFakeServer([.ok(#"{"Items":[{"id":{"S":"only"}}],"Count":1}"#)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            var counts: [Int?] = []
            for try await page in client.queryPages(
                QueryInput(
                    tableName: "t", keyConditionExpression: "id = :v",
                    expressionAttributeValues: [":v": .s("only")]))
            {
                counts.append(page.count)
            }
            #expect(counts == [1])
            #expect(server.requests.count == 1)
        }
    }

    @Test func listStreamsPagesFollowLastEvaluatedStreamArn() async throws {
        try await withFakeServer([
            .ok(#"{"Streams":[{"StreamArn":"arn:1","TableName":"t"}],"LastEvaluatedStreamArn":"arn:1"}"#),
            .ok(#"{"Streams":[{"StreamArn":"arn:2","TableName":"t"}]}"#),
        ]) { server in
            let client = try TestClients.client(endpoint: server.url)
            var arns: [String?] = []
            for try await page in client.listStreamsPages(StreamsListStreamsInput(limit: 1)) {
                arns += (page.streams ?? []).map(\.streamArn)
            }
            #expect(arns == ["arn:1", "arn:2"])
            #expect(server.requests.last?.body == #"{"Limit":1,"ExclusiveStartStreamArn":"arn:1"}"#)
            #expect(server.requests.allSatisfy { $0.headers["x-amz-target"] == "DynamoDBStreams_20120810.ListStreams" })
        }
    }

    @Test func batchGetAllResubmitsUnprocessedKeys() async throws {
        try await withFakeServer([
            .ok(#"{"Responses":{"t":[{"id":{"S":"1"}}]},"UnprocessedKeys":{"t":{"Keys":[{"id":{"S":"2"}}]}}}"#),
            .ok(#"{"Responses":{"t":[{"id":{"S":"2"}}]},"UnprocessedKeys":{}}"#),
        ]) { server in
            let sleeps = SleepRecorder()
            let client = try TestClients.client(endpoint: server.url, retry: sleeps.retry(random: 0.25))
            let result = try await client.batchGetAll(["t": KeysAndAttributes(keys: [["id": .s("1")], ["id": .s("2")]])])
            #expect(Set(result["t"] ?? []) == [["id": .s("1")], ["id": .s("2")]])
            #expect(server.requests.last?.body == #"{"RequestItems":{"t":{"Keys":[{"id":{"S":"2"}}]}}}"#)
            #expect(sleeps.recorded == [.milliseconds(250)])
        }
    }

    @Test func batchWriteAllChunksAndGivesUp() async throws {
        let unprocessed = #"{"UnprocessedItems":{"t":[{"DeleteRequest":{"Key":{"id":{"S":"x"}}}}]}}"#
        try await withFakeServer([.ok(unprocessed)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let writes = (0..<30).map { WriteRequest(deleteRequest: DeleteRequest(key: ["id": .s("\($0)")])) }
            await #expect { try await client.batchWriteAll(["t": writes], maximumRounds: 2) } throws: { error in
                if case DynamoClientError.unprocessedAfterRetries("2 writes after 2 resubmissions") = error { return true }
                return false
            }
            // Each chunk (25, then 5) is sent and its leftover resubmitted twice; what is still
            // left over is reported, not silently dropped.
            #expect(server.requests.count == 6)
        }
    }

    @Test func chunking() {
        let keys = (0..<150).map { ["id": AttributeValue.s("\($0)")] }
        let chunks = DynamoClient.chunks(
            [
                "a": KeysAndAttributes(keys: Array(keys[..<30])),
                "b": KeysAndAttributes(keys: Array(keys[30...])),
            ], size: 100)
        #expect(chunks.map { $0.values.reduce(0) { $0 + $1.keys.count } } == [100, 50])
        #expect(chunks[0]["a"]?.keys.count == 30 && chunks[0]["b"]?.keys.count == 70)
    }
}
