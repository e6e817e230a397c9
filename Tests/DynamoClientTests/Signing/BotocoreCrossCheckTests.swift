import Foundation
import Testing
@testable import DynamoClient

/// Signs the same requests with our signer and with botocore's `SigV4Auth` (installed with
/// boto3), at the same pinned time, and compares the `Authorization` headers.
struct BotocoreCrossCheckTests {
    /// Reads a JSON list of requests on stdin, prints one Authorization header per line.
    static let script = """
        import base64, datetime, json, sys
        import botocore.auth
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
        for case in json.load(sys.stdin):
            stamp = datetime.datetime.fromtimestamp(case["epoch"], datetime.timezone.utc).replace(tzinfo=None)
            botocore.auth.get_current_datetime = lambda stamp=stamp: stamp
            request = AWSRequest(method=case["method"], url=case["url"], data=base64.b64decode(case["body"]))
            for name, value in case["headers"]:
                request.headers[name] = value
            credentials = Credentials(case["key"], case["secret"], case.get("token"))
            SigV4Auth(credentials, case["service"], case["region"]).add_auth(request)
            print(request.headers["Authorization"])
        """

    struct Case {
        var method = "POST"
        var url: String
        var headers: [(String, String)]
        var body: String
        var token: String?
        var region = "us-east-1"
        var epoch: Double = 1_700_000_000
    }

    static let dynamoHeaders = [("Content-Type", "application/x-amz-json-1.0"), ("X-Amz-Target", "DynamoDB_20120810.PutItem")]

    static let cases: [Case] = [
        Case(
            url: "https://dynamodb.us-east-1.amazonaws.com/", headers: dynamoHeaders,
            body: #"{"TableName":"Music","Item":{"Artist":{"S":"No One You Know"}}}"#),
        Case(
            url: "http://127.0.0.1:8000/", headers: dynamoHeaders, body: "{}",
            token: "FwoGZXIvYXdzEJr//////////wEaDOkH+token/with=chars", region: "eu-west-3"),
        Case(
            url: "https://dynamodb.ap-southeast-2.amazonaws.com:443/", headers: dynamoHeaders + [("User-Agent", "x/1")],
            body: "", epoch: 1_234_567_890.5),
        Case(
            url: "http://localhost:80/",
            headers: [
                ("X-Amz-Target", "DynamoDBStreams_20120810.ListStreams"),
                ("Content-Type", "application/x-amz-json-1.0"),
                ("X-Custom", "  spaced    value  "),
            ],
            body: "{\"Limit\":3}\u{2603}", region: "cn-north-1"),
        Case(
            method: "GET", url: "https://example.amazonaws.com/a/./b/../c%20d//e/?b=2&a=1&a=0&c=%2F",
            headers: [], body: "", epoch: 0),
        Case(
            method: "PUT", url: "https://example.amazonaws.com/\u{00e9}t\u{00e9}", headers: [("X-Amz-Meta", "a\tb")],
            body: String(repeating: "x", count: 5000)),
    ]

    @Test func authorizationMatchesBotocore() throws {
        let credentialsKey = "AKIAIOSFODNN7EXAMPLE", secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        let json = try JSONSerialization.data(
            withJSONObject: Self.cases.map { item -> [String: Any] in
                var object: [String: Any] = [
                    "method": item.method, "url": item.url, "headers": item.headers.map { [$0.0, $0.1] },
                    "body": Data(item.body.utf8).base64EncodedString(), "key": credentialsKey, "secret": secret,
                    "service": "dynamodb", "region": item.region, "epoch": item.epoch,
                ]
                if let token = item.token { object["token"] = token }
                return object
            })
        let output = try PythonRunner.run(script: Self.script, input: String(decoding: json, as: UTF8.self))
        let expected = output.split(separator: "\n").map(String.init)
        try #require(expected.count == Self.cases.count)
        for (index, item) in Self.cases.enumerated() {
            let request = HTTPRequest(
                method: item.method, url: item.url,
                headers: item.headers.map { (name: $0.0, value: $0.1) }, body: Array(item.body.utf8))
            let signed = SigV4Signer(service: "dynamodb", region: item.region).sign(
                request,
                credentials: AWSCredentials(accessKeyID: credentialsKey, secretAccessKey: secret, sessionToken: item.token),
                date: Date(timeIntervalSince1970: item.epoch))
            #expect(signed.header("Authorization") == expected[index], "case \(index): \(item.url)")
        }
    }
}
