/// A request that got no usable HTTP response: the connection failed, timed out or broke.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, coarsely, as the retry logic needs it.
    public enum Kind: Sendable, Hashable {
        /// The host could not be resolved or the connection was refused or reset.
        case connectionFailed
        /// The connection was made but broke before a complete response arrived.
        case connectionLost
        /// The connect or request timeout passed.
        case timedOut
        /// The TLS handshake or certificate check failed.
        case tls
        /// The request itself could not be sent (bad URL, unsupported protocol, ...).
        case invalidRequest
        /// Any other transport failure.
        case other
    }

    /// The coarse kind.
    public var kind: Kind
    /// The transport's message for the failure.
    public var message: String
    /// libcurl's `CURLcode`, or `nil` when the failure did not come from libcurl.
    public var curlCode: Int?
    /// The `URLError` code, or `nil` when the failure did not come from `URLSession`.
    public var urlErrorCode: Int?

    /// Creates a transport error.
    ///
    /// - Parameters:
    ///   - kind: The coarse kind.
    ///   - message: A description.
    ///   - curlCode: The libcurl code, if any.
    public init(_ kind: Kind, _ message: String, curlCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.curlCode = curlCode
    }

    /// Whether the standard retry mode retries this failure (every kind but invalid requests
    /// and TLS failures, which a retry cannot fix).
    public var isRetryable: Bool {
        switch kind {
        case .connectionFailed, .connectionLost, .timedOut, .other: true
        case .tls, .invalidRequest: false
        }
    }

    /// The kind, message and libcurl or `URLError` code.
    public var description: String {
        if let curlCode { return "\(kind): \(message) (curl \(curlCode))" }
        if let urlErrorCode { return "\(kind): \(message) (URLError \(urlErrorCode))" }
        return "\(kind): \(message)"
    }
}
