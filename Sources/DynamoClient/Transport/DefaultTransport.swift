import AWSSigV4
import Foundation

#if canImport(Darwin)
    import DynamoURLSession
#endif

extension DynamoClient {
    /// The transports this platform has, by the name `DYNAMOCLIENT_TRANSPORT` takes.
    public enum TransportChoice: String, Sendable, CaseIterable {
        /// ``CurlTransport`` (only where libcurl is linked: Linux).
        case curl
        /// `URLSessionTransport` (Apple platforms). On Linux it is in the `DynamoURLSession`
        /// library, which DynamoClient does not link there (FoundationNetworking and the libcurl
        /// it links would load at every start): pass a `URLSessionTransport()` as the
        /// configuration's transport instead.
        case urlsession

        /// Whether this platform's DynamoClient can make the transport itself.
        public var isAvailable: Bool {
            switch self {
            case .urlsession:
                #if canImport(Darwin)
                    true
                #else
                    false
                #endif
            case .curl:
                #if canImport(CCurl)
                    true
                #else
                    false
                #endif
            }
        }

        /// The platform's default: libcurl where it is linked, else URLSession.
        public static var platformDefault: TransportChoice { curl.isAvailable ? .curl : .urlsession }

        /// The choice `DYNAMOCLIENT_TRANSPORT` (`curl` or `urlsession`, any case) makes among
        /// the available transports, else the platform's default.
        ///
        /// - Parameter environment: The environment to read (default: the process's).
        public static func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> TransportChoice {
            let requested = environment["DYNAMOCLIENT_TRANSPORT"].flatMap { TransportChoice(rawValue: $0.trimmingASCIIWhitespace().lowercased()) }
            guard let requested, requested.isAvailable else { return platformDefault }
            return requested
        }
    }

    /// The transport a client creates when its configuration names none: libcurl on Linux,
    /// URLSession on Apple platforms, unless `DYNAMOCLIENT_TRANSPORT` chooses another available
    /// one (see ``TransportChoice/resolved(environment:)``).
    ///
    /// ```swift
    /// let transport = DynamoClient.defaultTransport(maximumConnections: 8)
    /// ```
    ///
    /// - Parameters:
    ///   - maximumConnections: How many requests run at once. Default 16.
    ///   - environment: Where `DYNAMOCLIENT_TRANSPORT` is read (default: the process's).
    ///   - caBundle: A PEM file of CA certificates to trust instead of the system's store; only
    ///     libcurl takes it (URLSession trusts the system's store, where a custom CA is
    ///     installed as a configuration profile on Apple platforms).
    public static func defaultTransport(
        maximumConnections: Int = 16, environment: [String: String] = ProcessInfo.processInfo.environment,
        caBundle: String? = nil
    ) -> any HTTPTransport {
        #if canImport(CCurl)
            if TransportChoice.resolved(environment: environment) == .curl {
                return CurlTransport(maximumConnections: maximumConnections, caBundle: caBundle)
            }
        #endif
        #if canImport(Darwin)
            return URLSessionTransport(maximumConnections: maximumConnections)
        #else
            return UnavailableTransport()
        #endif
    }
}

#if !canImport(Darwin)
    /// The default on a platform with neither libcurl nor URLSession linked (never chosen where
    /// libcurl is, since `resolved` then always answers `curl`): every request fails
    /// with ``TransportError/Kind/invalidRequest``, saying to pass a transport.
    struct UnavailableTransport: HTTPTransport {
        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            throw TransportError(.invalidRequest, "DynamoClient has no transport on this platform: pass one in the configuration")
        }
    }
#endif
