@testable import DynamoServer
import Testing

@Suite struct RequestIDGeneratorTests {
    @Test func idsLookLikeDynamoDBs() {
        var generator = RequestIDGenerator()
        var seen = Set<String>()
        for _ in 0..<1000 {
            let id = generator.makeID()
            #expect(id.utf8.count == 52)
            #expect(
                id.utf8.allSatisfy { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) })
            seen.insert(id)
        }
        #expect(seen.count == 1000)
    }

    @Test func usesTheWholeAlphabet() {
        var generator = RequestIDGenerator(seed: 7)
        let characters = Set((0..<100).flatMap { _ in generator.makeID() })
        #expect(characters.count == 36)
    }
}

@Suite struct DynamoTargetTests {
    @Test(arguments: [
        ("DynamoDB_20120810.GetItem", DynamoTarget(service: .dynamoDB, operation: "GetItem")),
        ("DynamoDBStreams_20120810.GetRecords", DynamoTarget(service: .dynamoDBStreams, operation: "GetRecords")),
    ])
    func parses(header: String, expected: DynamoTarget) {
        #expect(DynamoTarget(header: header) == expected)
        #expect(expected.description == header)
    }

    @Test(arguments: [
        "", "GetItem", "DynamoDB_20120810", "DynamoDB_20120810.", "DynamoDB_20111205.GetItem",
        "DynamoDB_20120810.GetItem.x", "dynamodb_20120810.GetItem", ".GetItem",
    ])
    func rejects(header: String) {
        #expect(DynamoTarget(header: header) == nil)
    }
}

@Suite struct AuthorizationHeaderTests {
    @Test func readsTheCredentialScope() throws {
        let header = try #require(AuthorizationHeader(TestRequest.authorization))
        #expect(header.accessKeyID == "AKIDEXAMPLE")
        #expect(header.region == "eu-west-1")
        #expect(header.incompleteSignatureMessage(hasDate: true) == nil)
    }

    @Test func needsTheAWS4Prefix() {
        #expect(AuthorizationHeader("Bearer abc") == nil)
        #expect(AuthorizationHeader("") == nil)
        #expect(AuthorizationHeader("  AWS4-HMAC-SHA256 Credential=a") != nil)
    }

    @Test func listsEveryMissingPart() throws {
        let raw = "AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders"
        let header = try #require(AuthorizationHeader(raw))
        #expect(
            header.incompleteSignatureMessage(hasDate: false) == "Authorization header requires 'Credential' parameter. "
                + "Authorization header requires 'SignedHeaders' parameter. "
                + "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                + "Authorization=" + raw)
    }

    @Test func shortScopeHasNoRegion() throws {
        let header = try #require(AuthorizationHeader("AWS4-HMAC-SHA256 Credential=AKID, SignedHeaders=host, Signature=x"))
        #expect(header.accessKeyID == "AKID")
        #expect(header.region == "")
    }
}

@Suite struct ContentTypeTests {
    @Test(arguments: [
        ("application/x-amz-json-1.0", true),
        ("application/x-amz-json-1.0; charset=utf-8", true),
        ("Application/X-Amz-Json-1.0", true),
        ("application/x-amz-json-1.1", false),
        ("application/json", false),
        ("", false),
    ])
    func recognisesAmzJSON(value: String, expected: Bool) {
        #expect(WireProtocol.mediaType(value, is: WireProtocol.amzJSON) == expected)
    }
}
