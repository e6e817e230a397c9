import DynamoAPI
@testable import DynamoServer
import Testing

/// The wire checks, over a real socket, in DynamoDB's order.
@Suite struct HTTPServerWireTests {
    /// Sends one request on a fresh connection and reads the answer.
    func roundTrip(_ request: String, port: Int) async throws -> TestHTTPResponse {
        let client = try TestHTTPClient(port: port)
        try await client.send(request)
        return try await client.readResponse()
    }

    func json(_ response: TestHTTPResponse) throws -> JSONValue {
        try JSONValue(parsing: response.body)
    }

    @Test func happyPathCarriesDynamoDBHeaders() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(
                TestRequest.make(extraHeaders: [("X-Test-Header", "hello")], body: #"{"TableName":"t"}"#), port: port)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/x-amz-json-1.0")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("x-amz-crc32") == String(CRC32.checksum(response.body)))
            #expect(response.header("Connection") == nil)
            let requestID = try #require(response.header("x-amzn-RequestId"))
            #expect(requestID.utf8.count == 52)
            let echo = try json(response)
            #expect(echo["target"] == .string("DynamoDB_20120810.GetItem"))
            #expect(echo["accessKeyID"] == .string("AKIDEXAMPLE"))
            #expect(echo["region"] == .string("eu-west-1"))
            #expect(echo["requestID"] == .string(requestID))
            #expect(echo["testHeader"] == .string("hello"))
            #expect(echo["body"] == .object(["TableName": .string("t")]))
        }
    }

    @Test func answersPlainJSONWithPlainJSON() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(TestRequest.make(contentType: "application/json"), port: port)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
        }
    }

    @Test func routesTheStreamsService() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(TestRequest.make(target: "DynamoDBStreams_20120810.ListStreams"), port: port)
            #expect(response.status == 200)
            #expect(try json(response)["target"] == .string("DynamoDBStreams_20120810.ListStreams"))
        }
    }

    @Test func malformedJSONIsASerializationException() async throws {
        try await withHTTPTestServer { _, port in
            // Malformed JSON wins over a missing target and missing authorization.
            let response = try await roundTrip(
                TestRequest.make(target: nil, authorization: nil, body: #"{"TableName":"#), port: port)
            #expect(response.status == 400)
            #expect(response.text == #"{"__type":"com.amazon.coral.service#SerializationException"}"#)
            #expect(response.header("x-amz-crc32") == String(CRC32.checksum(response.body)))
            #expect(response.header("x-amzn-RequestId")?.utf8.count == 52)
        }
    }

    @Test(arguments: [nil, "GetItem", "DynamoDB_20120810.Nope", "DynamoDB_20111205.GetItem", "Foo.GetItem"])
    func unknownTargetIsAnUnknownOperation(target: String?) async throws {
        try await withHTTPTestServer { _, port in
            // Unknown target wins over missing authorization.
            let response = try await roundTrip(TestRequest.make(target: target, authorization: nil), port: port)
            #expect(response.status == 400)
            #expect(response.text == #"{"__type":"com.amazon.coral.service#UnknownOperationException"}"#)
        }
    }

    @Test(arguments: [nil, "", "Bearer token", "AWS3 x"])
    func missingAuthentication(authorization: String?) async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(TestRequest.make(authorization: authorization), port: port)
            #expect(response.status == 400)
            #expect(
                response.text
                    == #"{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","message":"Request is missing Authentication Token"}"#
            )
        }
    }

    @Test func incompleteSignature() async throws {
        try await withHTTPTestServer { _, port in
            let authorization = "AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/dynamodb/aws4_request"
            let response = try await roundTrip(TestRequest.make(authorization: authorization, date: nil), port: port)
            #expect(response.status == 400)
            let error = try json(response)
            #expect(error["__type"] == .string("com.amazon.coral.service#IncompleteSignatureException"))
            #expect(
                error["message"]
                    == .string(
                        "Authorization header requires 'Signature' parameter. "
                            + "Authorization header requires 'SignedHeaders' parameter. "
                            + "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                            + "Authorization=" + authorization))
        }
    }

    @Test func aDateHeaderIsEnoughOfADate() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(
                TestRequest.make(date: nil, extraHeaders: [("Date", "Mon, 01 Jan 2024 00:00:00 GMT")]), port: port)
            #expect(response.status == 200)
        }
    }

    @Test func emptyBodyIsASerializationExceptionAfterTheAuthChecks() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(TestRequest.make(body: ""), port: port)
            #expect(response.status == 400)
            #expect(response.text == #"{"__type":"com.amazon.coral.service#SerializationException"}"#)
            // With an empty body the content type is not checked, and the answer is plain JSON.
            let untyped = try await roundTrip(TestRequest.make(contentType: "text/plain", body: ""), port: port)
            #expect(untyped.status == 400)
            #expect(untyped.header("Content-Type") == "application/json")
        }
    }

    @Test(arguments: [
        TestRequest.make(method: "PUT"),
        TestRequest.make(method: "GET", path: "/other", body: ""),
        TestRequest.make(contentType: "text/plain"),
        TestRequest.make(contentType: nil),
        TestRequest.make(method: "OPTIONS"), // no Origin: not a preflight
    ])
    func notADynamoDBCallIs404(request: String) async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(request, port: port)
            #expect(response.status == 404)
            #expect(response.text == "<UnknownOperationException/>\n")
            #expect(response.header("x-amz-crc32") == "3552371480")
            #expect(response.header("Content-Length") == "29")
        }
    }

    @Test func dispatcherErrorsKeepTheirStatus() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip(TestRequest.make(target: "DynamoDB_20120810.Fail"), port: port)
            #expect(response.status == 400)
            #expect(
                response.text == #"{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}"#)
        }
    }

    @Test func unexpectedFailureIs500AndTheServerGoesOn() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            try await client.send(TestRequest.make(target: "DynamoDB_20120810.Throw"))
            let failed = try await client.readResponse()
            #expect(failed.status == 500)
            #expect(failed.text == #"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}"#)
            // Same connection, next request.
            try await client.send(TestRequest.make())
            #expect(try await client.readResponse().status == 200)
        }
    }

    /// `GET /` as DynamoDB answers it (dynalite's tests, recorded against the service): the plain
    /// text naming the endpoint of the request's region, trailing space included, no content type.
    @Test func healthCheck() async throws {
        try await withHTTPTestServer { _, port in
            let response = try await roundTrip("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
            #expect(response.status == 200)
            #expect(response.text == "healthy: dynamodb.us-east-1.amazonaws.com ")
            #expect(response.header("Content-Type") == nil)
            #expect(response.header("Content-Length") == "42")
            #expect(response.header("x-amzn-RequestId") != nil)
            let signed = try await roundTrip(
                "GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: AWS4-HMAC-SHA256 "
                    + "Credential=AKID/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host, Signature=ab\r\n\r\n",
                port: port)
            #expect(signed.text == "healthy: dynamodb.eu-west-2.amazonaws.com ")
        }
    }

    @Test func corsHeadersAndPreflight() async throws {
        try await withHTTPTestServer { _, port in
            let call = try await roundTrip(TestRequest.make(extraHeaders: [("Origin", "http://example.com")]), port: port)
            #expect(call.status == 200)
            #expect(call.header("Access-Control-Allow-Origin") == "*")

            let preflight = try await roundTrip(
                "OPTIONS / HTTP/1.1\r\nHost: localhost\r\nOrigin: http://example.com\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: x-amz-target,content-type\r\n\r\n",
                port: port)
            #expect(preflight.status == 200)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Methods") == "POST")
            #expect(preflight.header("Access-Control-Allow-Headers") == "x-amz-target,content-type")
            #expect(preflight.header("Access-Control-Max-Age") == "172800")
            #expect(preflight.header("Content-Length") == "0")
            #expect(preflight.body.isEmpty)

            let withoutOrigin = try await roundTrip(TestRequest.make(), port: port)
            #expect(withoutOrigin.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func malformedHTTPIs400() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            try await client.send("NOT HTTP AT ALL\r\n\r\n")
            #expect(try await client.readResponse().status == 400)
            #expect(try await client.readUntilClosed())
            // The server still serves others.
            #expect(try await roundTrip(TestRequest.make(), port: port).status == 200)
        }
    }
}
