import Foundation

/// Signs HTTP requests with AWS Signature Version 4 (the `Authorization` header form).
///
/// The canonical request follows the specification exactly: the path normalized (dot segments
/// removed, repeated slashes collapsed) and percent-encoded, the query's names and values
/// decoded, re-encoded with the RFC 3986 unreserved set and sorted, header names lowercased,
/// values trimmed with inner runs of whitespace collapsed, repeated headers joined with `,`,
/// and the hex SHA-256 of the body (or the request's own `X-Amz-Content-SHA256`). Every
/// header is signed except the hop-by-hop ones botocore also leaves out (`User-Agent`,
/// `Expect`, `Connection`, ...). The time is a parameter, so tests pin it.
///
/// ```swift
/// let signer = SigV4Signer(service: "dynamodb", region: "us-east-1")
/// let signed = signer.sign(request, credentials: credentials, date: Date())
/// ```
public struct SigV4Signer: Sendable, Hashable {
    /// The signing name of the service (`dynamodb`; DynamoDB Streams also signs as `dynamodb`).
    public var service: String
    /// The region of the credential scope.
    public var region: String

    /// Header names never signed (botocore's `SIGNED_HEADERS_BLACKLIST`): proxies and HTTP
    /// libraries may add, drop or rewrite them on the way.
    package static let unsignedHeaders: Set<String> = [
        "connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id", "authorization",
    ]

    /// Creates a signer for one service and region.
    ///
    /// - Parameters:
    ///   - service: The signing name (`dynamodb`).
    ///   - region: The region (`us-east-1`).
    public init(service: String, region: String) {
        self.service = service
        self.region = region
    }

    /// Returns `request` with `Host` (when missing), `X-Amz-Date`, `X-Amz-Security-Token` (for
    /// temporary credentials) and `Authorization` set. Earlier values of those headers are
    /// replaced, so a retried request can be signed again.
    ///
    /// - Parameters:
    ///   - request: The request; its URL must be absolute.
    ///   - credentials: The keys to sign with.
    ///   - date: The signing time.
    /// - Returns: The signed request.
    public func sign<Request: SigV4Signable>(_ request: Request, credentials: AWSCredentials, date: Date) -> Request {
        sign(request, credentials: credentials, date: date, pathEncodedOnce: false)
    }

    /// Signs as ``sign(_:credentials:date:)`` does, taking the derived signing key from `keys`:
    /// a client that signs many requests derives the key (four HMACs) once per secret and day
    /// instead of once per request.
    ///
    /// - Parameters:
    ///   - request: The request; its URL must be absolute.
    ///   - credentials: The keys to sign with.
    ///   - date: The signing time.
    ///   - keys: The cache of derived keys.
    ///   - urlParts: `URLParts(request.url)`, when the caller keeps it (a client parses its
    ///     endpoint once, not once a request); `nil` parses the URL here.
    /// - Returns: The signed request.
    package func sign<Request: SigV4Signable>(
        _ request: Request, credentials: AWSCredentials, date: Date, keys: SigV4SigningKeyCache,
        urlParts: URLParts? = nil
    ) -> Request {
        sign(request, credentials: credentials, date: date, pathEncodedOnce: false, keys: keys, urlParts: urlParts)
    }

    /// The signing steps every form shares. `pathEncodedOnce` (S3) hands the canonical-request
    /// builder the decoded path, so the canonical URI is the path encoded exactly once; other
    /// services encode the path as sent a second time.
    func sign<Request: SigV4Signable>(
        _ request: Request, credentials: AWSCredentials, date: Date,
        pathEncodedOnce: Bool, keys: SigV4SigningKeyCache? = nil, urlParts: URLParts? = nil
    ) -> Request {
        let time = AmzDate(date)
        var signed = request
        signed.headers.removeAll {
            $0.name.isASCIICaseInsensitiveEqual(to: "authorization") || $0.name.isASCIICaseInsensitiveEqual(to: "x-amz-date")
                || $0.name.isASCIICaseInsensitiveEqual(to: "x-amz-security-token")
        }
        let parts = urlParts ?? URLParts(request.url)
        if signed.headerValue("host") == nil, let parts {
            signed.headers.insert(("Host", parts.hostHeader), at: 0)
        }
        signed.headers.append(("X-Amz-Date", time.timestamp))
        if let token = credentials.sessionToken {
            signed.headers.append(("X-Amz-Security-Token", token))
        }
        let path = parts?.path ?? "/"
        let canonical = Self.canonicalRequest(
            method: signed.method, path: pathEncodedOnce ? SigV4Encoding.decode(path) : path, query: parts?.query,
            headers: signed.headers, defaultHost: parts?.hostHeader,
            payloadHash: signed.headerValue("x-amz-content-sha256") ?? SHA256.hash(signed.body).hexString, signing: nil)
        let key =
            keys?.signingKey(self, secretAccessKey: credentials.secretAccessKey, day: time.day)
            ?? signingKey(secretAccessKey: credentials.secretAccessKey, day: time.day)
        let signature = Self.signature(
            stringToSign: stringToSign(canonicalRequest: canonical.text, time: time), signingKey: key)
        let scope = "\(credentials.accessKeyID)/\(credentialScope(day: time.day))"
        signed.headers.append(
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=\(scope), SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
            ))
        return signed
    }

    /// The canonical request of an already dated request, and its signed-headers list: every
    /// header except ``unsignedHeaders`` is signed.
    package func canonicalRequest(_ request: some SigV4Signable) -> (text: String, signedHeaders: String) {
        let parts = URLParts(request.url)
        let payloadHash = request.headerValue("x-amz-content-sha256") ?? SHA256.hash(request.body).hexString
        return Self.canonicalRequest(
            method: request.method, path: parts?.path ?? "/", query: parts?.query,
            headers: request.headers, defaultHost: parts?.hostHeader,
            payloadHash: payloadHash, signing: nil)
    }

    /// The canonical request from its parts, as a signer builds it and a verifier rebuilds it.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path as sent (percent-encoded form).
    ///   - query: The query as sent, without `?`.
    ///   - headers: Every header of the request.
    ///   - defaultHost: The `host` value to sign when the headers have none.
    ///   - payloadHash: The hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
    ///   - signing: The lowercased header names to sign (a verifier passes the request's
    ///     `SignedHeaders`); `nil` signs every header except ``unsignedHeaders``.
    /// - Returns: The canonical request and its `SignedHeaders` list.
    package static func canonicalRequest(
        method: String, path: String, query: String?,
        headers: [(name: String, value: String)], defaultHost: String?,
        payloadHash: String, signing: Set<String>?
    ) -> (text: String, signedHeaders: String) {
        // (lowercased name, trimmed value) in request order; sorted by name below, stably, so
        // the values of a repeated header keep their order when joined with `,`.
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(headers.count + 1)
        var hasHost = false
        for (name, value) in headers {
            let lowered = name.lowercased()
            if let signing {
                guard signing.contains(lowered) else { continue }
            } else if unsignedHeaders.contains(lowered) {
                continue
            }
            if lowered == "host" { hasHost = true }
            fields.append((lowered, trimAll(value)))
        }
        if !hasHost, let defaultHost, signing?.contains("host") ?? true { fields.append(("host", defaultHost)) }
        let order = fields.indices.sorted { fields[$0].name != fields[$1].name ? fields[$0].name < fields[$1].name : $0 < $1 }
        var headerLines = ""
        var signedHeaders = ""
        for (position, index) in order.enumerated() {
            let field = fields[index]
            if position > 0, fields[order[position - 1]].name == field.name {
                headerLines.append(",")
            } else {
                if position > 0 {
                    headerLines.append("\n")
                    signedHeaders.append(";")
                }
                headerLines.append(field.name)
                headerLines.append(":")
                signedHeaders.append(field.name)
            }
            headerLines.append(field.value)
        }
        if !order.isEmpty { headerLines.append("\n") }
        var text = method.uppercased()
        for part in [canonicalURI(path), canonicalQuery(query), headerLines, signedHeaders, payloadHash] {
            text.append("\n")
            text.append(part)
        }
        return (text, signedHeaders)
    }

    /// `date/region/service/aws4_request`.
    package func credentialScope(day: String) -> String { "\(day)/\(region)/\(service)/aws4_request" }

    /// The string to sign for a canonical request.
    package func stringToSign(canonicalRequest: String, time: AmzDate) -> String {
        [
            "AWS4-HMAC-SHA256", time.timestamp, credentialScope(day: time.day),
            SHA256.hash(Array(canonicalRequest.utf8)).hexString,
        ].joined(separator: "\n")
    }

    /// The hex signature: HMAC of the string to sign under the key derived from the secret,
    /// the day, the region and the service.
    package func signature(stringToSign: String, secretAccessKey: String, day: String) -> String {
        Self.signature(stringToSign: stringToSign, signingKey: signingKey(secretAccessKey: secretAccessKey, day: day))
    }

    /// The normalized, percent-encoded path.
    package static func canonicalURI(_ path: String) -> String {
        SigV4Encoding.encode(SigV4Encoding.normalizePath(path), keepSlash: true)
    }

    /// Query pairs decoded, re-encoded and sorted by name, then value; a name without `=` gets an
    /// empty value.
    package static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (String, String) in
            let equals = pair.firstIndex(of: "=")
            let name = equals.map { pair[..<$0] } ?? pair
            let value = equals.map { pair[pair.index(after: $0)...] } ?? ""
            return (SigV4Encoding.encode(SigV4Encoding.decode(name)), SigV4Encoding.encode(SigV4Encoding.decode(value)))
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Leading and trailing whitespace removed, inner runs collapsed to one space.
    package static func trimAll(_ value: String) -> String {
        if isTrimmed(value) { return value }
        return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .joined(separator: " ")
    }

    /// Whether `trimAll` would return `value` unchanged: no tab, CR or LF, no space at either end
    /// and no two spaces in a row (checked on the bytes, without splitting into characters).
    private static func isTrimmed(_ value: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in value.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte == 0x20 && previous == 0x20) { return false }
            previous = byte
        }
        return previous != 0x20 || value.isEmpty
    }
}
