import Foundation
import Logging

extension DynamoClient {
    /// Everything a client can be told in code. Whatever is left `nil` is resolved from the
    /// environment and the shared AWS files, in the AWS SDKs' order (see ``DynamoClient/init(configuration:)``).
    ///
    /// ```swift
    /// var configuration = DynamoClient.Configuration()
    /// configuration.region = "eu-west-1"
    /// configuration.timeouts = HTTPTimeouts(connect: .seconds(2), request: .seconds(10))
    /// let client = try DynamoClient(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The region; `nil` resolves `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`
        /// (and, with ``DynamoClient/init(resolving:)``, the instance metadata service).
        public var region: String?
        /// The DynamoDB endpoint URL; `nil` resolves `AWS_ENDPOINT_URL_DYNAMODB`,
        /// `AWS_ENDPOINT_URL`, the profile, else the regional AWS endpoint.
        public var endpoint: String?
        /// The DynamoDB Streams endpoint; `nil` uses ``endpoint`` when that is set in code,
        /// else resolves like the DynamoDB endpoint for service `dynamodb_streams`.
        public var streamsEndpoint: String?
        /// The shared-file profile; `nil` means `AWS_PROFILE`, else `default`.
        public var profile: String?
        /// Static credentials; they take precedence over every other source.
        public var credentials: AWSCredentials?
        /// A credential provider to use instead of the default chain (it is wrapped in a
        /// ``CachingCredentialProvider`` unless it is a ``SelfCachingCredentialProvider``, such as
        /// ``CognitoIdentityCredentialProvider``).
        public var credentialProvider: (any CredentialProvider)?
        /// Retry behaviour; `nil` is the standard mode with `AWS_MAX_ATTEMPTS` or the profile's
        /// `max_attempts` when set. A mode left `nil` is `AWS_RETRY_MODE` or the profile's
        /// `retry_mode` (`standard`, `adaptive`; `legacy` reads as standard).
        public var retry: RetryConfiguration?
        /// Connect and per-attempt timeouts.
        public var timeouts: HTTPTimeouts
        /// How many requests run at once (each on its own connection); more wait their turn.
        public var maximumConnections: Int
        /// A PEM file of CA certificates to trust instead of the system's store; `nil` resolves
        /// `AWS_CA_BUNDLE`, else the profile's `ca_bundle`. Used by the libcurl transport the
        /// client creates (URLSession keeps the system's trust store).
        public var caBundle: String?
        /// The HTTP transport; `nil` creates ``DynamoClient/defaultTransport(maximumConnections:environment:)``
        /// (libcurl on Linux, URLSession on Apple platforms, or as `DYNAMOCLIENT_TRANSPORT` says).
        public var transport: (any HTTPTransport)?
        /// Where environment variables and files are read (injected in tests).
        public var sources: ConfigurationSources
        /// The signing clock (injected in tests).
        public var clock: @Sendable () -> Date
        /// Receives one debug line per attempt (operation, status, attempt, request id); never
        /// credentials, signatures or item values.
        public var logger: Logger
        /// Receives one ``OperationReport`` per finished call (latency, attempts, consumed
        /// capacity, error code); the logger gets the same numbers at debug level.
        public var observer: (any DynamoClientObserver)?

        /// Creates a configuration where everything is resolved from the environment.
        ///
        /// - Parameters:
        ///   - region: The region, or `nil` to resolve it.
        ///   - endpoint: The endpoint URL, or `nil` to resolve it.
        ///   - credentials: Static credentials, or `nil` for the provider chain.
        public init(region: String? = nil, endpoint: String? = nil, credentials: AWSCredentials? = nil) {
            self.region = region
            self.endpoint = endpoint
            self.credentials = credentials
            timeouts = HTTPTimeouts()
            maximumConnections = 16
            sources = .process
            clock = { Date() }
            logger = Logger(label: "DynamoClient")
        }
    }
}
