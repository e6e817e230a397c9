/// One HTTP request, as the client's transport sends it.
///
/// Header names keep the case they were given; the signer and the transport treat them
/// case-insensitively.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PUT`, ...
    public var method: String
    /// The absolute URL, e.g. `https://dynamodb.us-east-1.amazonaws.com/`.
    public var url: String
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body bytes (empty for none).
    public var body: [UInt8]
    /// Whether the request goes straight to its host, ignoring `http_proxy`, `https_proxy` and
    /// `all_proxy` (the instance and container metadata endpoints are link-local or loopback
    /// addresses a proxy cannot reach, and must never see their tokens forwarded).
    public var bypassesProxy: Bool

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields in sending order.
    ///   - body: The body bytes.
    ///   - bypassesProxy: Whether to ignore proxies from the environment (default `false`).
    public init(
        method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        bypassesProxy: Bool = false
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bypassesProxy = bypassesProxy
    }

    /// The first header whose name or value contains CR, LF or NUL (which would end the field
    /// and let the rest be read as further header lines), or `nil` when every field is safe.
    public var unsafeHeaderName: String? {
        headers.first { !$0.name.isSafeHeaderText || !$0.value.isSafeHeaderText }?.name
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Equal when method, URL, body, proxy use and the ordered header fields are equal.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.bypassesProxy == rhs.bypassesProxy
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
        hasher.combine(bypassesProxy)
        for header in headers {
            hasher.combine(header.name)
            hasher.combine(header.value)
        }
    }
}

/// One HTTP response as received.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields with lowercased names; a repeated field keeps its last value.
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields; names are lowercased.
    ///   - body: The body bytes.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// A response whose header names the transport lowercased already, as it parsed them (or
    /// as the in-process transport received them).
    package init(status: Int, lowercasedHeaders: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = lowercasedHeaders
        self.body = body
    }

    /// A header's value by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// How long the transport waits.
public struct HTTPTimeouts: Sendable, Hashable {
    /// The longest time to establish a connection (TCP and TLS).
    public var connect: Duration
    /// The longest time one attempt may take in total, connection included.
    public var request: Duration

    /// Creates timeouts.
    ///
    /// - Parameters:
    ///   - connect: Connection establishment limit (default 5 s).
    ///   - request: Whole-attempt limit (default 30 s).
    public init(connect: Duration = .seconds(5), request: Duration = .seconds(30)) {
        self.connect = connect
        self.request = request
    }
}

/// Sends HTTP requests. DynamoClient's `CurlTransport` (Linux) and DynamoURLSession's
/// `URLSessionTransport` (Apple platforms, Linux on request) implement it; tests may substitute
/// another.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the response, whatever its status.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeouts: The limits for this attempt.
    /// - Throws: ``TransportError`` when no response arrived; `CancellationError` when the task
    ///   was cancelled.
    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse
}

extension String {
    /// Whether the text can be sent inside one HTTP header field: no CR, LF or NUL.
    package var isSafeHeaderText: Bool {
        let scan = utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        }
        return scan ?? !utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}

extension Duration {
    /// The duration in seconds, as `TimeInterval` counts them.
    package var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
