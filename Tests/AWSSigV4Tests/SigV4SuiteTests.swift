import Foundation
import Testing
@testable import AWSSigV4

/// AWS's SigV4 test suite (`aws-sig-v4-test-suite`, as vendored in awslabs/aws-c-auth under
/// `tests/aws-signing-test-suite/v4/<name>/header-signed-request.txt` and in botocore's
/// `tests/unit/auth/aws4_testsuite`): every case signs with the suite's fixed key, time,
/// region and service and must produce the published `Authorization` header.
struct SigV4SuiteTests {
    static let credentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    /// 2015-08-30T12:36:00Z.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)
    static let signer = SigV4Signer(service: "service", region: "us-east-1")

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "GET"
        var target: String
        var headers: [(String, String)] = []
        var body = ""
        var token: String?
        var signedHeaders = "host;x-amz-date"
        var signature: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "get-vanilla", target: "/",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(
            name: "get-relative-relative-normalized", target: "/example1/example2/../..",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(
            name: "get-slashes-normalized", target: "//example//",
            signature: "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84"),
        Case(
            name: "get-space-normalized", target: "/example space/",
            signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
        Case(
            name: "get-utf8", target: "/\u{1234}",
            signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        Case(
            name: "get-unreserved", target: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Case(
            name: "get-vanilla-query-order-key-case", target: "/?Param2=value2&Param1=value1",
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Case(
            name: "get-vanilla-query-order-value", target: "/?Param1=value2&Param1=value1",
            signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
        Case(
            name: "get-vanilla-utf8-query", target: "/?\u{1234}=bar",
            signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        Case(
            name: "get-header-value-trim", target: "/",
            headers: [("My-Header1", " value1"), ("My-Header2", "\"a   b   c\"")],
            signedHeaders: "host;my-header1;my-header2;x-amz-date",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Case(
            name: "get-header-key-duplicate", target: "/",
            headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
            signedHeaders: "host;my-header1;x-amz-date",
            signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Case(
            name: "get-header-value-order", target: "/",
            headers: [("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"), ("My-Header1", "value2")],
            signedHeaders: "host;my-header1;x-amz-date",
            signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"),
        Case(
            name: "get-vanilla-with-session-token", target: "/",
            token: "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
            signedHeaders: "host;x-amz-date;x-amz-security-token",
            signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
        Case(
            name: "post-x-www-form-urlencoded", method: "POST", target: "/",
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "Param1=value1",
            signedHeaders: "content-type;host;x-amz-date",
            signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
    ]

    @Test(arguments: cases)
    func publishedAuthorization(_ vector: Case) {
        var credentials = Self.credentials
        credentials.sessionToken = vector.token
        let request = SigV4Request(
            method: vector.method, url: "https://example.amazonaws.com" + vector.target,
            headers: [("Host", "example.amazonaws.com")] + vector.headers.map { (name: $0.0, value: $0.1) },
            body: Array(vector.body.utf8))
        let signed = Self.signer.sign(request, credentials: credentials, date: Self.date)
        #expect(
            signed.headerValue("Authorization") == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(vector.signedHeaders), Signature=\(vector.signature)")
        #expect(signed.headerValue("X-Amz-Date") == "20150830T123600Z")
        #expect(signed.headerValue("X-Amz-Security-Token") == vector.token)
    }

    /// The suite's published canonical request for `get-vanilla-query-order-key-case`.
    @Test func canonicalRequestText() {
        let request = SigV4Request(
            method: "GET", url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
            headers: [("Host", "example.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")])
        #expect(
            Self.signer.canonicalRequest(request).text == """
                GET
                /
                Param1=value1&Param2=value2
                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
    }

    @Test(arguments: [
        ("", "/"), ("/", "/"), ("//example//", "/example/"), ("/a/./b/../c", "/a/c"), ("/a/..b/.c", "/a/..b/.c"),
        ("/example space/", "/example%20space/"), ("/a%2Fb", "/a%252Fb"), ("/\u{1234}", "/%E1%88%B4"),
    ])
    func canonicalURI(path: String, canonical: String) {
        #expect(SigV4Signer.canonicalURI(path) == canonical)
    }

    @Test(arguments: [
        ("b&a=1", "a=1&b="), ("q=a+b", "q=a%2Bb"), ("x=a.b&x=a%2Fb", "x=a%2Fb&x=a.b"), ("a=10&a=9", "a=10&a=9"),
        ("a=1=2", "a=1%3D2"), ("", ""),
    ])
    func canonicalQuery(query: String, canonical: String) {
        #expect(SigV4Signer.canonicalQuery(query) == canonical)
    }

    @Test func amzDateAcrossEpochs() {
        #expect(AmzDate(Date(timeIntervalSince1970: 0)).timestamp == "19700101T000000Z")
        #expect(AmzDate(Date(timeIntervalSince1970: 951_782_400)).timestamp == "20000229T000000Z")
        #expect(AmzDate(Date(timeIntervalSince1970: 4_102_444_799.9)).timestamp == "20991231T235959Z")
    }
}
