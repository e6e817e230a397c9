import DynamoAPI
import Foundation
import Testing
@testable import DynamoClient

/// What goes over the wire: method, headers, signature, body, endpoints.
struct WireFormatTests {
    @Test func requestCarriesTargetSignatureAndJSON() async throws {
        try await withFakeServer([.ok(#"{"Table":{"TableName":"t","TableStatus":"ACTIVE"}}"#)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let output = try await client.describeTable(DescribeTableInput(tableName: "t"))
            #expect(output.table?.tableStatus == .active)
            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/")
            #expect(request.headers["x-amz-target"] == "DynamoDB_20120810.DescribeTable")
            #expect(request.headers["content-type"] == "application/x-amz-json-1.0")
            #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
            #expect(request.headers["expect"] == nil)
            let authorization = try #require(request.headers["authorization"])
            #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDTEST/"))
            #expect(authorization.contains("/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature="))
            #expect(request.body == #"{"TableName":"t"}"#)
        }
    }

    @Test func streamsOperationsUseStreamsTarget() async throws {
        try await withFakeServer([.ok(#"{"Streams":[]}"#)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            _ = try await client.listStreams(StreamsListStreamsInput(limit: 5))
            #expect(server.requests.first?.headers["x-amz-target"] == "DynamoDBStreams_20120810.ListStreams")
        }
    }

    @Test func keepAliveReusesOneConnection() async throws {
        try await withFakeServer([.ok()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            for _ in 0..<5 { _ = try await client.listTables(ListTablesInput()) }
            #expect(server.requests.count == 5)
            #expect(server.requestConnectionCount == 1)
        }
    }

    @Test func concurrentRequestsAllComplete() async throws {
        try await withFakeServer([.delay(.milliseconds(50), .ok())]) { server in
            let client = try TestClients.client(endpoint: server.url)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 { group.addTask { _ = try await client.listTables(ListTablesInput()) } }
                try await group.waitForAll()
            }
            #expect(server.requests.count == 40)
            // At most 16 in flight to one host; connections are reused (a transport may still
            // replace one now and then, so the total of connections opened is not the bound).
            #expect(server.peakConcurrentRequests <= 16)
            #expect(server.requestConnectionCount < 40)
        }
    }

    @Test func refusedConnectionIsATransportError() async throws {
        try await withRefusingPort { (port: Int) async throws -> Void in
            let client = try TestClients.client(endpoint: "http://127.0.0.1:\(port)", retry: SleepRecorder().retry(attempts: 2))
            let error = await #expect(throws: TransportError.self) { try await client.listTables(ListTablesInput()) }
            #expect(error?.kind == .connectionFailed)
            #expect(client.availableRetryTokens == 495)
        }
    }
}
