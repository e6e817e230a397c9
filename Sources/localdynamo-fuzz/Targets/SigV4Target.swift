import AWSSigV4
import Foundation

/// The SigV4 verifier's parsing of the `Authorization` header, `X-Amz-Date`, the security
/// token and presigned query strings. Corpus entries are requests that the target signs with a
/// known key; inputs are `<METHOD> <target>\n<Name>: <value>\n...\n\n<body>`, so mutations
/// reach every signed part.
struct SigV4Target: FuzzTarget {
    let name = "sigv4"
    let dictionary = [
        "AWS4-HMAC-SHA256", " Credential=", "Credential=", ", SignedHeaders=", ", Signature=", "/", ";", ",", "=",
        " ", "host", "x-amz-date", "x-amz-security-token", "content-type", "AKIDFUZZ", "us-east-1", "dynamodb",
        "aws4_request", "20261125", "T120000Z", "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=",
        "&X-Amz-Date=", "&X-Amz-SignedHeaders=host", "&X-Amz-Signature=", "&X-Amz-Expires=", "%2F", "%", "\n",
        "Authorization: ", "X-Amz-Date: ", "Date: Wed, 25 Nov 2026 12:00:00 GMT",
    ]

    static let credentials = AWSCredentials(accessKeyID: "AKIDFUZZ", secretAccessKey: "fuzz-secret")
    /// The signing time and the verifier's clock: 2026-11-25T12:00:00Z.
    static let now: Double = 1_795_608_000

    func prepare(corpusEntry: [UInt8], fileName: String) -> [UInt8] {
        let request = Self.parse(corpusEntry)
        // A presigned URL stays as written (its signature is not valid, its parsing is the point).
        if request.target.contains("X-Amz-Algorithm") { return corpusEntry }
        let unsigned = SigV4Request(
            method: request.method, url: "http://localhost:8000" + request.target,
            headers: request.headers, body: Array(request.body.utf8))
        let signed = SigV4Signer(service: "dynamodb", region: "us-east-1")
            .sign(unsigned, credentials: Self.credentials, date: Date(timeIntervalSince1970: Self.now))
        let headerText = signed.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        return Array("\(request.method) \(request.target)\n\(headerText)\n\n\(request.body)".utf8)
    }

    func run(_ input: [UInt8]) -> String {
        let parsed = Self.parse(input)
        let request = SigV4IncomingRequest(method: parsed.method, target: parsed.target, headers: parsed.headers)
        let result = SigV4Verifier(service: "dynamodb").verify(
            request, now: Self.now, payloadHash: { SHA256.hash(Array(parsed.body.utf8)).hexString },
            identity: { $0 == Self.credentials.accessKeyID ? Self.credentials : nil })
        switch result {
        case .success: return "ok"
        case .failure(let refusal): return refusal.kind.rawValue
        }
    }

    /// `<METHOD> <target>`, `Name: value` lines, an empty line, the body.
    private static func parse(_ bytes: [UInt8]) -> (
        method: String, target: String, headers: [(name: String, value: String)],
        body: Substring
    ) {
        let (head, body) = split(String(decoding: bytes, as: UTF8.self))
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false)
        let requestLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ", maxSplits: 1)
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop(while: { $0 == " " })))
        }
        return (requestLine.first.map(String.init) ?? "", requestLine.count > 1 ? String(requestLine[1]) : "/", headers, body)
    }

    private static func split(_ text: String) -> (head: Substring, body: Substring) {
        guard let range = text.range(of: "\n\n") else { return (text[...], "") }
        return (text[..<range.lowerBound], text[range.upperBound...])
    }
}
