import DynamoAPI
import Foundation
import Logging
import Testing
@testable import DynamoClient

/// Errors keep what the service said: request id, status, throttling reasons; retries are
/// logged with them.
struct ErrorResponseTests {
    static func error(_ status: Int, _ body: String, requestID: String) -> FakeHTTPServer.Action {
        .respond(status: status, headers: ["x-amzn-RequestId": requestID], body: body)
    }

    @Test func dynamoErrorCarriesRequestIDAndStatus() async throws {
        let body = #"{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}"#
        try await withFakeServer([Self.error(400, body, requestID: "4KBNVRGD25RG4KEO9UT4V3FQDJVV4KQNSO5AEMVJF66Q9ASUAAJG")]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let error = await #expect(throws: DynamoError.self) {
                try await client.putItem(PutItemInput(tableName: "t", item: ["id": .s("1")]))
            }
            #expect(error?.code == .conditionalCheckFailed)
            #expect(error?.response == ResponseMetadata(requestID: "4KBNVRGD25RG4KEO9UT4V3FQDJVV4KQNSO5AEMVJF66Q9ASUAAJG", httpStatus: 400))
            #expect(
                error?.description == "https response error StatusCode: 400, RequestID: "
                    + "4KBNVRGD25RG4KEO9UT4V3FQDJVV4KQNSO5AEMVJF66Q9ASUAAJG, ConditionalCheckFailedException: The conditional request failed")
        }
    }

    @Test(arguments: [
        ("ProvisionedThroughputExceededException", "ThrottlingReasons"),
        ("RequestLimitExceeded", "ThrottlingReasons"),
        ("ThrottlingException", "throttlingReasons"),
    ])
    func throttlingReasonsAreTyped(type: String, member: String) async throws {
        let body =
            #"{"__type":"com.amazonaws.dynamodb.v20120810#\#(type)","message":"slow down","\#(member)":["#
            + #"{"reason":"TableReadProvisionedThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/t"},"#
            + #"{"reason":"IndexWriteAccountLimitExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/t/index/g"}]}"#
        try await withFakeServer([Self.error(400, body, requestID: "REQ-T")]) { server in
            let client = try TestClients.client(endpoint: server.url, retry: SleepRecorder().retry(attempts: 1))
            let error = await #expect(throws: DynamoError.self) {
                try await client.getItem(GetItemInput(tableName: "t", key: ["id": .s("1")]))
            }
            #expect(error?.code.rawValue == type)
            #expect(
                error?.throttlingReasons == [
                    ThrottlingReason(reason: "TableReadProvisionedThroughputExceeded", resource: "arn:aws:dynamodb:us-east-1:123456789012:table/t"),
                    ThrottlingReason(reason: "IndexWriteAccountLimitExceeded", resource: "arn:aws:dynamodb:us-east-1:123456789012:table/t/index/g"),
                ])
            #expect(error?.response?.requestID == "REQ-T")
            // The body the server side would render for it carries the same reasons.
            let rendered = try JSONValue(parsing: error!.body).objectValue
            #expect(rendered?[member] != nil)
        }
    }

    @Test func unexpectedResponseKeepsItsRequestID() async throws {
        try await withFakeServer([Self.error(403, "<html>Forbidden</html>", requestID: "REQ-HTML")]) { server in
            let client = try TestClients.client(endpoint: server.url)
            await #expect { try await client.listTables(ListTablesInput()) } throws: { error in
                guard case DynamoClientError.unexpectedResponse(403, "REQ-HTML", let body) = error else { return false }
                return body == "<html>Forbidden</html>" && "\(error)".contains("RequestID: REQ-HTML")
            }
        }
    }

    @Test func retriesAreLoggedWithAttemptCodeAndRequestID() async throws {
        // The dropped connection comes first: libcurl itself retries a request whose reused
        // connection turns out dead, so a drop after a response would not reach the client.
        try await withFakeServer([
            .dropConnection,
            Self.error(400, #"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"slow"}"#, requestID: "REQ-1"),
            .ok(#"{"TableNames":[]}"#),
        ]) { server in
            let logs = LogRecorder()
            var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: server.url, credentials: TestClients.credentials)
            configuration.sources = ConfigurationSources(environment: [:])
            configuration.retry = SleepRecorder().retry()
            configuration.logger = logs.logger()
            let client = try DynamoClient(configuration: configuration)
            _ = try await client.listTables(ListTablesInput())
            let retries = logs.recorded.filter { $0.message == "DynamoClient retrying" }
            #expect(retries.count == 2)
            #expect(retries.allSatisfy { $0.level == .debug })
            #expect(retries.first?.metadata["attempt"] == "1")
            #expect(retries.first?.metadata["errorCode"] == "TransportError.connectionLost")
            #expect(retries.first?.metadata["requestId"] == "-")
            #expect(retries.last?.metadata["attempt"] == "2")
            #expect(retries.last?.metadata["errorCode"] == "ThrottlingException")
            #expect(retries.last?.metadata["requestId"] == "REQ-1")
        }
    }
}
