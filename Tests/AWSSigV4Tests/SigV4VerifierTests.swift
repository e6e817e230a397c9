import Foundation
import Testing
@testable import AWSSigV4

/// `SigV4Verifier`: what the signer signs verifies, and every signed part tampered with (or a
/// time out of the window, a wrong scope, an unknown key, a wrong token) is refused with
/// DynamoDB's error.
struct SigV4VerifierTests {
    static let alice = AWSCredentials(accessKeyID: "AKIDALICE", secretAccessKey: "alice-secret")
    static let temporary = AWSCredentials(accessKeyID: "ASIATEMP", secretAccessKey: "temp-secret", sessionToken: "temp-token")
    /// 2026-01-01T00:00:00Z.
    static let now = 1_767_225_600.0
    static let verifier = SigV4Verifier(service: "dynamodb")
    static let body = Array(#"{"TableName":"Orders"}"#.utf8)

    static func signed(
        _ credentials: AWSCredentials = alice, at time: Double = now, region: String = "us-east-1",
        service: String = "dynamodb"
    ) -> SigV4Request {
        let request = SigV4Request(
            method: "POST", url: "http://127.0.0.1:8000/",
            headers: [
                ("Content-Type", "application/x-amz-json-1.0"), ("X-Amz-Target", "DynamoDB_20120810.DescribeTable"),
            ], body: body)
        return SigV4Signer(service: service, region: region)
            .sign(request, credentials: credentials, date: Date(timeIntervalSince1970: time))
    }

    static func verify(
        _ request: SigV4Request, target: String = "/", body: [UInt8] = body, now: Double = now,
        verifier: SigV4Verifier = verifier
    ) -> Result<SigV4Verified, SigV4Refusal> {
        verifier.verify(
            SigV4IncomingRequest(method: request.method, target: target, headers: request.headers),
            now: now, payloadHash: { SHA256.hash(body).hexString },
            identity: { key in [alice, temporary].first { $0.accessKeyID == key } })
    }

    static func refusal(_ result: Result<SigV4Verified, SigV4Refusal>) -> SigV4Refusal? {
        if case .failure(let refusal) = result { return refusal }
        return nil
    }

    static func replacing(_ name: String, with value: String, in request: SigV4Request) -> SigV4Request {
        var copy = request
        copy.headers = copy.headers.map { $0.name.lowercased() == name ? (name: $0.name, value: value) : $0 }
        return copy
    }

    @Test func signedRequestsVerify() throws {
        let verified = try Self.verify(Self.signed()).get()
        #expect(verified.credentials.accessKeyID == "AKIDALICE")
        #expect(verified.region == "us-east-1")
        #expect(try Self.verify(Self.signed(Self.temporary, region: "eu-west-1")).get().region == "eu-west-1")
    }

    @Test func everySignedPartTamperedFails() {
        let request = Self.signed()
        var method = request
        method.method = "PUT"
        #expect(Self.refusal(Self.verify(method)) == .signatureMismatch)
        #expect(Self.refusal(Self.verify(request, target: "/other")) == .signatureMismatch)
        #expect(Self.refusal(Self.verify(request, target: "/?a=b")) == .signatureMismatch)
        #expect(Self.refusal(Self.verify(request, body: Array(#"{"TableName":"Orderz"}"#.utf8))) == .signatureMismatch)
        for (header, value) in [
            ("host", "127.0.0.1:8001"), ("content-type", "application/json"),
            ("x-amz-target", "DynamoDB_20120810.ListTables"), ("x-amz-date", "20260101T000001Z"),
        ] {
            #expect(
                Self.refusal(Self.verify(Self.replacing(header, with: value, in: request))) == .signatureMismatch,
                "tampered \(header)")
        }
        let authorization = request.headerValue("authorization")!
        let tampered: [(String, SigV4Refusal)] = [
            ("/us-east-1/", .signatureMismatch), // another region: every region is valid, the signature is not
            ("AKIDALICE/", .unknownAccessKey),
            ("/dynamodb/", SigV4Refusal(.invalidSignature, "Credential should be scoped to correct service: 'dynamodb'.")),
            (
                "/20260101/",
                SigV4Refusal(
                    .invalidSignature,
                    "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20251231' != '20260101', from '20260101T000000Z'."
                )
            ),
            (
                "aws4_request",
                SigV4Refusal(
                    .invalidSignature,
                    "Credential should be scoped with a valid terminator: 'aws4_request', not 'aws5_request'.")
            ),
        ]
        let replacements = [
            "/us-east-1/": "/us-west-2/", "AKIDALICE/": "AKIDBOB/",
            "/dynamodb/": "/dynamodbstreams/", "/20260101/": "/20251231/", "aws4_request": "aws5_request",
        ]
        for (part, expected) in tampered {
            let changed = authorization.replacingOccurrences(of: part, with: replacements[part]!)
            #expect(changed != authorization)
            #expect(
                Self.refusal(Self.verify(Self.replacing("authorization", with: changed, in: request))) == expected,
                "tampered \(part)")
        }
        let signature = String(authorization.suffix(64))
        let flipped = String(authorization.dropLast(64)) + (signature.first == "0" ? "1" : "0") + String(signature.dropFirst())
        #expect(Self.refusal(Self.verify(Self.replacing("authorization", with: flipped, in: request))) == .signatureMismatch)
    }

    @Test func sessionTokens() {
        #expect(Self.refusal(Self.verify(Self.signed(Self.temporary))) == nil)
        var withoutToken = Self.temporary
        withoutToken.sessionToken = nil
        #expect(Self.refusal(Self.verify(Self.signed(withoutToken))) == .wrongSessionToken)
        var otherToken = Self.temporary
        otherToken.sessionToken = "other"
        #expect(Self.refusal(Self.verify(Self.signed(otherToken))) == .wrongSessionToken)
        var aliceWithToken = Self.alice
        aliceWithToken.sessionToken = "temp-token"
        #expect(Self.refusal(Self.verify(Self.signed(aliceWithToken))) == .wrongSessionToken)
        // The token header is signed: changing it after signing breaks the signature first.
        let tampered = Self.replacing("x-amz-security-token", with: "other", in: Self.signed(Self.temporary))
        #expect(Self.refusal(Self.verify(tampered)) == .signatureMismatch)
    }

    @Test func requestTimeWindow() {
        let late = Self.refusal(Self.verify(Self.signed(at: Self.now - 901)))
        #expect(
            late
                == SigV4Refusal(
                    .invalidSignature,
                    "Signature expired: 20251231T234459Z is now earlier than 20251231T234500Z (20260101T000000Z - 15 min.)"))
        let early = Self.refusal(Self.verify(Self.signed(at: Self.now + 901)))
        #expect(
            early
                == SigV4Refusal(
                    .invalidSignature,
                    "Signature not yet current: 20260101T001501Z is still later than 20260101T001500Z (20260101T000000Z + 15 min.)"))
        #expect(Self.refusal(Self.verify(Self.signed(at: Self.now - 900))) == nil)
        let strict = SigV4Verifier(service: "dynamodb", allowedSkew: 60)
        #expect(
            Self.refusal(Self.verify(Self.signed(at: Self.now - 61), verifier: strict))?.message
                == "Signature expired: 20251231T235859Z is now earlier than 20251231T235900Z (20260101T000000Z - 1 min.)")
    }

    @Test func malformedAuthorization() {
        let request = Self.signed()
        func refusal(_ authorization: String?) -> SigV4Refusal? {
            var copy = request
            copy.headers.removeAll { $0.name.lowercased() == "authorization" }
            if let authorization { copy.headers.append(("Authorization", authorization)) }
            return Self.refusal(Self.verify(copy))
        }
        #expect(refusal(nil) == .missingToken)
        #expect(refusal("Bearer x") == .missingToken)
        #expect(refusal("AWS4-HMAC-SHA256 Signature=abc")?.kind == .incompleteSignature)
        #expect(
            refusal("AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host;x-amz-date, Signature=00")
                == SigV4Refusal(
                    .incompleteSignature,
                    "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got 'a/b/c/d'"))
        #expect(
            refusal("AWS4-HMAC-SHA512 Credential=AKIDALICE/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00")
                == SigV4Refusal(.incompleteSignature, "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA512' (only AWS4-HMAC-SHA256 for now). "))
        #expect(
            refusal("AWS4-HMAC-SHA256 Credential=AKIDALICE/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=x-amz-date, Signature=00")
                == SigV4Refusal(.invalidSignature, "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."))
        #expect(
            refusal("AWS4-HMAC-SHA256 Credential=AKIDALICE/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
                == SigV4Refusal(.invalidSignature, "'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization."))
        let badDate = Self.replacing("x-amz-date", with: "2026-01-01", in: request)
        #expect(
            Self.refusal(Self.verify(badDate))
                == SigV4Refusal(
                    .incompleteSignature,
                    "Date must be in ISO-8601 'basic format'. Got '2026-01-01'. See http://en.wikipedia.org/wiki/ISO_8601"))
    }

    /// A presigned URL built the way botocore's `SigV4QueryAuth` builds one.
    static func presigned(expires: Int = 300, at time: Double = now, token: String? = nil) -> (
        target: String, headers: [(name: String, value: String)]
    ) {
        let stamp = AmzDate(Date(timeIntervalSince1970: time))
        let headers: [(name: String, value: String)] = [("Host", "127.0.0.1:8000"), ("X-Amz-Target", "DynamoDB_20120810.ListTables")]
        var query =
            "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDALICE%2F\(stamp.day)%2Fus-east-1%2Fdynamodb%2Faws4_request"
            + "&X-Amz-Date=\(stamp.timestamp)&X-Amz-Expires=\(expires)&X-Amz-SignedHeaders=host%3Bx-amz-target"
        if let token { query += "&X-Amz-Security-Token=\(token)" }
        let signer = SigV4Signer(service: "dynamodb", region: "us-east-1")
        let canonical = SigV4Signer.canonicalRequest(
            method: "POST", path: "/", query: query, headers: headers, defaultHost: nil,
            payloadHash: SHA256.hash(body).hexString, signing: ["host", "x-amz-target"])
        let signature = signer.signature(
            stringToSign: signer.stringToSign(canonicalRequest: canonical.text, time: stamp),
            secretAccessKey: alice.secretAccessKey, day: stamp.day)
        return ("/?" + query + "&X-Amz-Signature=" + signature, headers)
    }

    static func verifyPresigned(_ url: (target: String, headers: [(name: String, value: String)]), now: Double = now)
        -> Result<SigV4Verified, SigV4Refusal>
    {
        verifier.verify(
            SigV4IncomingRequest(method: "POST", target: url.target, headers: url.headers), now: now,
            payloadHash: { SHA256.hash(body).hexString }, identity: { $0 == alice.accessKeyID ? alice : nil })
    }

    @Test func presignedQueries() {
        #expect(Self.refusal(Self.verifyPresigned(Self.presigned())) == nil)
        #expect(Self.refusal(Self.verifyPresigned(Self.presigned(), now: Self.now + 300)) == nil)
        #expect(
            Self.refusal(Self.verifyPresigned(Self.presigned(), now: Self.now + 301))
                == SigV4Refusal(
                    .invalidSignature,
                    "Signature expired: 20260101T000000Z is now earlier than 20260101T000001Z (20260101T000501Z - 300 sec.)"))
        let url = Self.presigned()
        #expect(
            Self.refusal(Self.verifyPresigned((url.target.replacingOccurrences(of: "Expires=300", with: "Expires=3000"), url.headers)))
                == .signatureMismatch)
        #expect(
            Self.refusal(Self.verifyPresigned((url.target, [url.headers[0], ("X-Amz-Target", "DynamoDB_20120810.GetItem")])))
                == .signatureMismatch)
        #expect(
            Self.refusal(Self.verifyPresigned(("/?X-Amz-Algorithm=AWS4-HMAC-SHA256", url.headers)))?.message
                == "AWS query-string parameters must include 'X-Amz-Credential'. AWS query-string parameters must include "
                + "'X-Amz-Signature'. AWS query-string parameters must include 'X-Amz-SignedHeaders'. AWS query-string "
                + "parameters must include 'X-Amz-Date'. Re-examine the query-string parameters.")
        #expect(
            Self.refusal(Self.verifyPresigned((url.target, url.headers + [("Authorization", "AWS4-HMAC-SHA256 x")])))?.message
                == "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.")
    }

    @Test func signingKeysAreCachedPerDay() {
        let cache = SigV4SigningKeyCache(limit: 2)
        let signer = SigV4Signer(service: "dynamodb", region: "us-east-1")
        let first = cache.signingKey(signer, secretAccessKey: "s", day: "20260101")
        #expect(cache.signingKey(signer, secretAccessKey: "s", day: "20260101") == first)
        #expect(cache.count == 1)
        #expect(first == signer.signingKey(secretAccessKey: "s", day: "20260101"))
        _ = cache.signingKey(signer, secretAccessKey: "s", day: "20260102")
        _ = cache.signingKey(signer, secretAccessKey: "s", day: "20260103")
        #expect(cache.count <= 2)
    }

    @Test func timesParse() {
        #expect(SigV4Time.parseBasic("20260101T000000Z") == Self.now)
        #expect(SigV4Time.parseBasic("20000229T235959Z") == 951_868_799)
        #expect(SigV4Time.parseBasic("2026010T000000Z") == nil)
        #expect(SigV4Time.parseBasic("20261301T000000Z") == nil)
        #expect(SigV4Time.parseHTTPDate("Thu, 01 Jan 2026 00:00:00 GMT") == Self.now)
        #expect(SigV4Time.basic(Self.now) == "20260101T000000Z")
    }
}
