import DynamoAPI
import DynamoTestSupport
import Testing
@testable import DynamoClient

/// The batch helpers: requests of 25 writes / 100 keys / 16 MB, leftovers resubmitted with
/// jittered backoff, and what stays unprocessed reported.
struct BatchHelperTests {
    @Test func writesAreSplitBy25AndBySize() {
        let writes = (0..<60).map { WriteRequest(putRequest: PutRequest(item: ["id": .s("\($0)")])) }
        #expect(DynamoClient.chunks(["t": writes], size: 25).map { $0["t"]?.count } == [25, 25, 10])
        let big = (0..<10).map { WriteRequest(putRequest: PutRequest(item: ["id": .s("\($0)"), "blob": .s(String(repeating: "x", count: 1000))])) }
        let bySize = DynamoClient.chunks(["t": big], size: 25, maximumBytes: 3500)
        #expect(bySize.map { $0["t"]?.count } == [3, 3, 3, 1])
        for chunk in bySize { #expect(BatchWriteItemInput(requestItems: chunk).jsonBytes.count <= 3500) }
        let alone = DynamoClient.chunks(["t": big], size: 25, maximumBytes: 100)
        #expect(alone.count == 10)
    }

    @Test func batchWriteReportsWhatStaysUnprocessedWithJitteredBackoff() async throws {
        let leftover = #"{"UnprocessedItems":{"t":[{"PutRequest":{"Item":{"id":{"S":"3"}}}}]}}"#
        try await withFakeServer([.ok(leftover), .ok(leftover), .ok(leftover)]) { server in
            let sleeps = SleepRecorder()
            let client = try TestClients.client(endpoint: server.url, retry: sleeps.retry(random: 0.5))
            let writes = (0..<4).map { WriteRequest(putRequest: PutRequest(item: ["id": .s("\($0)")])) }
            let report = try await client.batchWrite(["t": writes], maximumRounds: 2)
            #expect(report.requests == 3)
            #expect(report.unprocessed == ["t": [WriteRequest(putRequest: PutRequest(item: ["id": .s("3")]))]])
            // Full jitter: random (0.5 here) × 1 s × 2^(round − 1).
            #expect(sleeps.recorded == [.milliseconds(500), .seconds(1)])
            #expect(server.requests.dropFirst().allSatisfy { $0.body == #"{"RequestItems":{"t":[{"PutRequest":{"Item":{"id":{"S":"3"}}}}]}}"# })
        }
    }

    @Test func batchGetReportsUnprocessedKeysAndCapacity() async throws {
        let first =
            #"{"Responses":{"t":[{"id":{"S":"1"}}]},"UnprocessedKeys":{"t":{"Keys":[{"id":{"S":"2"}}]}},"ConsumedCapacity":[{"TableName":"t","CapacityUnits":1.0}]}"#
        let again =
            #"{"Responses":{},"UnprocessedKeys":{"t":{"Keys":[{"id":{"S":"2"}}]}},"ConsumedCapacity":[{"TableName":"t","CapacityUnits":0.5}]}"#
        try await withFakeServer([.ok(first), .ok(again)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let report = try await client.batchGet(
                ["t": KeysAndAttributes(keys: [["id": .s("1")], ["id": .s("2")]])],
                maximumRounds: 1, returnConsumedCapacity: .total)
            #expect(report.items == ["t": [["id": .s("1")]]])
            #expect(report.unprocessed["t"]?.keys == [["id": .s("2")]])
            #expect(report.consumedCapacity.compactMap(\.capacityUnits) == [1.0, 0.5])
            #expect(server.requests.first?.body.contains(#""ReturnConsumedCapacity":"TOTAL""#) == true)
        }
    }

    @Test func anyNumberOfItemsThroughLocalDynamo() async throws {
        try await withTestServer { endpoint in
            let client = try await LocalTables.client(endpoint, table: "Many")
            let items: [Item] = (0..<260).map { ["id": .s("item-\($0)"), "n": .n(DynamoNumber($0))] }
            let written = try await client.batchWrite(["Many": items.map { WriteRequest(putRequest: PutRequest(item: $0)) }])
            #expect(written.unprocessed.isEmpty)
            #expect(written.requests == 11)
            let read = try await client.batchGet(["Many": KeysAndAttributes(keys: items.map { ["id": $0["id"]!] })])
            #expect(read.unprocessed.isEmpty)
            #expect(read.requests == 3)
            #expect(Set(read.items["Many"] ?? []) == Set(items))
        }
    }
}
