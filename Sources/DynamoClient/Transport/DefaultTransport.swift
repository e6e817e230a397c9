import AWSSigV4
import Foundation

extension DynamoClient {
    /// The transports this platform has, by the name `DYNAMOCLIENT_TRANSPORT` takes.
    public enum TransportChoice: String, Sendable, CaseIterable {
        /// ``CurlTransport`` (only where libcurl is linked: Linux).
        case curl
        /// ``URLSessionTransport`` (Apple platforms; Linux through FoundationNetworking).
        case urlsession

        /// Whether this platform has the transport.
        public var isAvailable: Bool {
            switch self {
            case .urlsession: true
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
        switch TransportChoice.resolved(environment: environment) {
        case .urlsession:
            return URLSessionTransport(maximumConnections: maximumConnections)
        case .curl:
            #if canImport(CCurl)
                return CurlTransport(maximumConnections: maximumConnections, caBundle: caBundle)
            #else
                return URLSessionTransport(maximumConnections: maximumConnections)
            #endif
        }
    }
}
