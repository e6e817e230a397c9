/// A request the SigV4 signer can read and add headers to.
///
/// `DynamoClient`'s `HTTPRequest` conforms, and so does ``SigV4Request`` for callers (the
/// server's outgoing S3 and Kinesis calls, tests) that have no request type of their own.
public protocol SigV4Signable: Sendable {
    /// `GET`, `POST`, `PUT`, ...
    var method: String { get }
    /// The absolute URL.
    var url: String { get }
    /// Header fields in sending order; the signer appends and replaces some.
    var headers: [(name: String, value: String)] { get set }
    /// The body bytes (empty for none).
    var body: [UInt8] { get }
}

extension SigV4Signable {
    /// The first value of a header, matched case-insensitively.
    package func headerValue(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.isASCIICaseInsensitiveEqual(to: lowered) }?.value
    }
}

extension String {
    /// Whether the text equals `lowercased` (lowercase already) when ASCII letters are compared
    /// without case, as HTTP header names are; compared on the bytes, without a lowercased copy.
    package func isASCIICaseInsensitiveEqual(to lowercased: String) -> Bool {
        var other = lowercased.utf8.makeIterator()
        for byte in utf8 {
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard other.next() == folded else { return false }
        }
        return other.next() == nil
    }
}

/// A plain request to sign: method, absolute URL, headers and body.
///
/// ```swift
/// let request = SigV4Request(method: "PUT", url: "http://127.0.0.1:9000/bucket/key", body: bytes)
/// let signed = SigV4Signer(service: "s3", region: "us-east-1").sign(request, credentials: keys, date: Date())
/// ```
public struct SigV4Request: SigV4Signable {
    /// `GET`, `POST`, `PUT`, ...
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Header fields in sending order.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields in sending order.
    ///   - body: The body bytes.
    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
