import DynamoAPI
@testable import DynamoServer
import DynamoTestSupport
import Testing

/// The whole server in process (engine, dispatcher, HTTP) on port 0, driven over a socket.
@Suite struct LocalDynamoServerTests {
    /// Sends one DynamoDB call and returns the status and parsed body.
    func call(
        _ operation: String, _ body: String, port: Int,
        region: String = "us-east-1"
    ) async throws -> (status: Int, json: JSONValue) {
        let client = try TestHTTPClient(port: port)
        let request = """
            POST / HTTP/1.1\r
            Host: 127.0.0.1\r
            Content-Type: application/x-amz-json-1.0\r
            X-Amz-Target: DynamoDB_20120810.\(operation)\r
            X-Amz-Date: 20260101T000000Z\r
            Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/\(region)/dynamodb/aws4_request, SignedHeaders=host, Signature=abc\r
            Content-Length: \(body.utf8.count)\r
            \r
            \(body)
            """
        try await client.send(request)
        let response = try await client.readResponse()
        return (response.status, try JSONValue(parsing: response.body))
    }

    static let createTable = #"""
        {"TableName":"Things","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
         "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}
        """#

    /// The example of `LocalDynamoServer`'s doc comment, line for line, then a call to the port
    /// it printed: the example compiles and serves.
    @Test func theDocumentedExampleRuns() async throws {
        let server = try LocalDynamoServer(configuration: .init(port: 0)) // dataDirectory nil: tables in memory
        let port = try await server.start()
        // point any AWS SDK at http://127.0.0.1:\(port)
        let created = try await call("CreateTable", Self.createTable, port: port)
        #expect(created.status == 200)
        await server.shutdown()
    }

    @Test func createPutGetThroughTheWire() async throws {
        try await withTestServer { endpoint in
            let created = try await call("CreateTable", Self.createTable, port: endpoint.port)
            #expect(created.status == 200)
            #expect(created.json["TableDescription"]?["TableStatus"] == .string("CREATING"))
            let put = try await call(
                "PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"a"},"n":{"N":"+1000.0"}}}"#, port: endpoint.port)
            #expect(put.status == 200)
            let got = try await call("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"a"}}}"#, port: endpoint.port)
            #expect(got.json["Item"]?["n"] == .object(["N": .string("1000")]))
        }
    }

    @Test func answersWhileTheConcurrencyPoolIsBusy() async throws {
        // An app or a test run embedding the server may keep every thread of the global
        // concurrency pool busy: no answer (small body, large body, admin) may wait for one.
        try await withTestServer { endpoint in
            let client = try TestHTTPClient(port: endpoint.port, receiveTimeoutSeconds: 5)
            // 25 items of 3 KiB: a body well above the 64 KiB parsed on the event loop.
            let items = (0..<25).map { index in
                #"{"PutRequest":{"Item":{"pk":{"S":"k\#(index)"},"v":{"S":"\#(String(repeating: "x", count: 3000))"}}}}"#
            }
            let batch = #"{"RequestItems":{"Things":[\#(items.joined(separator: ","))]}}"#
            let requests = [
                TestRequest.make(target: "DynamoDB_20120810.CreateTable", body: Self.createTable),
                TestRequest.make(target: "DynamoDB_20120810.BatchWriteItem", body: batch),
                TestRequest.make(body: #"{"TableName":"Things","Key":{"pk":{"S":"k24"}}}"#),
                TestRequest.make(method: "GET", path: "/_localdynamo/clock", target: nil, body: ""),
            ]
            let occupation = PoolOccupation()
            let answers = Result { try requests.map { try client.exchangeOnThisThread(Array($0.utf8)) } }
            await occupation.end()
            let responses = try answers.get()
            #expect(batch.utf8.count > 64 * 1024)
            #expect(responses.map(\.status) == [200, 200, 200, 200])
            let item = try JSONValue(parsing: responses[2].body)["Item"]
            #expect(item?["v"] == .object(["S": .string(String(repeating: "x", count: 3000))]))
            #expect(try JSONValue(parsing: responses[3].body)["epochSeconds"] != nil)
        }
    }

    @Test func errorsAreDynamoDBShaped() async throws {
        try await withTestServer { endpoint in
            let missing = try await call("GetItem", #"{"TableName":"Nope","Key":{"pk":{"S":"a"}}}"#, port: endpoint.port)
            #expect(missing.status == 400)
            #expect(missing.json["__type"] == .string("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"))
            let invalid = try await call("CreateTable", #"{"TableName":"ab"}"#, port: endpoint.port)
            #expect(invalid.json["__type"] == .string("com.amazon.coral.validate#ValidationException"))
            let wrongType = try await call("DescribeTable", #"{"TableName":5}"#, port: endpoint.port)
            #expect(wrongType.json["__type"] == .string("com.amazon.coral.service#SerializationException"))
        }
    }

    @Test func regionsAreSeparateNamespacesByDefault() async throws {
        try await withTestServer { endpoint in
            _ = try await call("CreateTable", Self.createTable, port: endpoint.port, region: "us-east-1")
            let east = try await call("ListTables", "{}", port: endpoint.port, region: "us-east-1")
            let west = try await call("ListTables", "{}", port: endpoint.port, region: "eu-west-1")
            #expect(east.json["TableNames"] == .array([.string("Things")]))
            #expect(west.json["TableNames"] == .array([]))
        }
    }

    @Test func sharedNamespaceSpansRegions() async throws {
        try await withTestServer(namespace: .shared) { endpoint in
            _ = try await call("CreateTable", Self.createTable, port: endpoint.port, region: "us-east-1")
            let west = try await call("ListTables", "{}", port: endpoint.port, region: "eu-west-1")
            #expect(west.json["TableNames"] == .array([.string("Things")]))
        }
    }
}
