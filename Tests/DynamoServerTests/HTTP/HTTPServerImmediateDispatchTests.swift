import DynamoAPI
@testable import DynamoServer
import Testing

/// A dispatcher that answers `GetItem` synchronously (`dispatchImmediately`), hands `Later` on
/// with work of its own, and everything else to the asynchronous path, so the tests can tell
/// which path answered.
private struct ImmediateDispatcher: DynamoDispatcher {
    struct Boom: Error {}

    func supports(target: DynamoTarget) -> Bool {
        ["GetItem", "PutItem", "Later", "Fail", "Throw"].contains(target.operation)
    }

    func dispatch(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) async throws -> DynamoResult {
        .success(Array(#"{"path":"async"}"#.utf8))
    }

    func dispatchImmediately(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) throws
        -> ImmediateDispatch
    {
        switch target.operation {
        case "GetItem": return .answered(.success(Array(#"{"path":"immediate","requestID":"\#(context.requestID)"}"#.utf8)))
        case "Fail": return .answered(.failure(.tableNotFound()))
        case "Throw": throw Boom()
        case "Later": return .later { .success(Array(#"{"path":"handed on"}"#.utf8)) }
        default: return .later { try await dispatch(target, body: body, context: context) }
        }
    }
}

/// `DynamoDispatcher.dispatchImmediately`: an answer given synchronously is written like one
/// from `dispatch`, with the same framing and error mapping; `nil` falls back to `dispatch`.
@Suite struct HTTPServerImmediateDispatchTests {
    func roundTrip(_ request: String, port: Int) async throws -> TestHTTPResponse {
        let client = try TestHTTPClient(port: port)
        try await client.send(request)
        return try await client.readResponse()
    }

    @Test func immediateAnswerIsFramedLikeAnAsyncOne() async throws {
        try await withHTTPTestServer(dispatcher: ImmediateDispatcher()) { _, port in
            let response = try await roundTrip(TestRequest.make(target: "DynamoDB_20120810.GetItem"), port: port)
            #expect(response.status == 200)
            let body = try JSONValue(parsing: response.body)
            #expect(body["path"] == .string("immediate"))
            #expect(body["requestID"] == response.header("x-amzn-RequestId").map(JSONValue.string))
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("x-amz-crc32") == String(CRC32.checksum(response.body)))
            #expect(response.header("Content-Type") == "application/x-amz-json-1.0")
        }
    }

    @Test func laterRunsTheWorkHandedOn() async throws {
        try await withHTTPTestServer(dispatcher: ImmediateDispatcher()) { _, port in
            let response = try await roundTrip(TestRequest.make(target: "DynamoDB_20120810.PutItem"), port: port)
            #expect(response.status == 200)
            #expect(try JSONValue(parsing: response.body)["path"] == .string("async"))
            let handedOn = try await roundTrip(TestRequest.make(target: "DynamoDB_20120810.Later"), port: port)
            #expect(handedOn.status == 200)
            #expect(try JSONValue(parsing: handedOn.body)["path"] == .string("handed on"))
        }
    }

    @Test func immediateFailuresMapLikeAsyncOnes() async throws {
        try await withHTTPTestServer(dispatcher: ImmediateDispatcher()) { _, port in
            let failed = try await roundTrip(TestRequest.make(target: "DynamoDB_20120810.Fail"), port: port)
            #expect(failed.status == 400)
            #expect(try JSONValue(parsing: failed.body)["__type"]?.stringValue?.hasSuffix("ResourceNotFoundException") == true)
            let thrown = try await roundTrip(TestRequest.make(target: "DynamoDB_20120810.Throw"), port: port)
            #expect(thrown.status == 500)
            #expect(try JSONValue(parsing: thrown.body)["__type"]?.stringValue?.hasSuffix("InternalServerError") == true)
        }
    }
}
