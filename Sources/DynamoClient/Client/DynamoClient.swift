import DynamoAPI
import Foundation
import Logging

/// A DynamoDB client: SigV4-signed JSON requests over libcurl, with the AWS SDKs' credential
/// chain, endpoint resolution and standard retry mode.
///
/// The same code talks to `localdynamo` and to DynamoDB; only the endpoint differs.
///
/// ```swift
/// let client = DynamoClient.local(port: 8000)          // or: try DynamoClient()
/// _ = try await client.createTable(CreateTableInput(
///     attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)],
///     tableName: "Notes",
///     keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)],
///     billingMode: .payPerRequest))
/// _ = try await client.putItem(PutItemInput(tableName: "Notes", item: ["id": .s("1"), "text": .s("hello")]))
/// let note = try await client.getItem(GetItemInput(tableName: "Notes", key: ["id": .s("1")])).item
/// ```
///
/// A client is safe to share between tasks; requests run concurrently up to
/// ``Configuration/maximumConnections``.
public final class DynamoClient: Sendable {
    /// The signing region.
    public let region: String
    /// The DynamoDB endpoint URL requests go to.
    public let endpoint: String
    /// The DynamoDB Streams endpoint URL.
    public let streamsEndpoint: String
    /// Where `SearchVectors` goes: DynamoDB's vector-search host, or ``endpoint`` when one is
    /// configured.
    public let searchEndpoint: String

    let transport: any HTTPTransport
    let credentialProvider: any CredentialProvider
    let retry: RetryConfiguration
    let retryTokens: RetryTokenBucket
    let timeouts: HTTPTimeouts
    let clock: @Sendable () -> Date
    let logger: Logger
    let observer: (any DynamoClientObserver)?
    /// The adaptive retry mode's client-side rate limiter; `nil` in the standard mode.
    let rateLimiter: AdaptiveRateLimiter?
    /// Account-based endpoints for DynamoDB requests (see ``ServiceLocation/accountEndpoint``).
    let accountEndpoint: AccountEndpoint?
    /// Seconds added to ``clock`` when signing, learned from a server's `Date` header after a
    /// request was refused for clock skew.
    let clockSkew = ClockSkew()
    /// Derived SigV4 signing keys, one per secret and day (the region and service are fixed).
    let signingKeys = SigV4SigningKeyCache(limit: 16)
    /// ``endpoint`` and ``streamsEndpoint`` split for signing, once per client.
    let endpointParts: URLParts?
    let streamsEndpointParts: URLParts?
    let searchEndpointParts: URLParts?

    /// The `User-Agent` the client sends.
    static let userAgent = "localdynamo-DynamoClient/0.1 lang/swift"

    /// Creates a client, resolving what the configuration leaves open.
    ///
    /// - Region: code, `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region` (the async
    ///   ``init(resolving:)`` then also asks the instance metadata service).
    /// - Endpoint: code, `AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL`, the profile's
    ///   `[services]` `dynamodb.endpoint_url`, the profile's `endpoint_url`, else
    ///   `https://dynamodb.<region>.amazonaws.com`.
    /// - Credentials: code, then the chain environment → profile (assume role, web identity,
    ///   IAM Identity Center, keys, `credential_process`) → container → instance metadata,
    ///   cached and refreshed before expiry.
    /// - Retries: ``Configuration/retry``, with `AWS_MAX_ATTEMPTS` / `max_attempts` and
    ///   `AWS_RETRY_MODE` / `retry_mode` filling what it leaves open.
    /// - CA bundle: ``Configuration/caBundle``, `AWS_CA_BUNDLE`, the profile's `ca_bundle`.
    ///
    /// - Parameter configuration: What is fixed in code.
    /// - Throws: ``DynamoClientError/missingRegion``, ``DynamoClientError/invalidRegion(_:)`` or
    ///   ``DynamoClientError/invalidEndpoint(_:)``, or ``DynamoClientError/invalidConfiguration(_:)``.
    public convenience init(configuration: Configuration = Configuration()) throws(DynamoClientError) {
        let sources = configuration.sources
        let shared = SharedConfiguration(sources: sources, profile: configuration.profile)
        let location = try ServiceLocation(
            region: configuration.region, endpoint: configuration.endpoint,
            streamsEndpoint: configuration.streamsEndpoint, sources: sources, profile: shared)
        let caBundle = configuration.caBundle ?? sources.value("AWS_CA_BUNDLE") ?? shared["ca_bundle"]
        let transport =
            configuration.transport
            ?? Self.defaultTransport(
                maximumConnections: configuration.maximumConnections, caBundle: caBundle.map(sources.expandingHome))
        let provider: any CredentialProvider
        if let credentials = configuration.credentials {
            provider = StaticCredentialProvider(credentials)
        } else {
            switch configuration.credentialProvider {
            case let selfCaching as any SelfCachingCredentialProvider:
                provider = selfCaching
            case let other:
                provider = CachingCredentialProvider(
                    other ?? CredentialProviderChain.default(sources: sources, profile: configuration.profile, transport: transport),
                    now: configuration.clock)
            }
        }
        var retry = configuration.retry ?? RetryConfiguration()
        if configuration.retry == nil,
            let attempts = (sources.value("AWS_MAX_ATTEMPTS") ?? shared["max_attempts"]).flatMap({ Int($0) }), attempts > 0
        {
            retry.maximumAttempts = attempts
        }
        if retry.mode == nil {
            let mode = (sources.value("AWS_RETRY_MODE") ?? shared["retry_mode"])?.lowercased()
            retry.mode = mode.flatMap(RetryMode.init(rawValue:)) ?? .standard
        }
        self.init(
            location: location, transport: transport, credentialProvider: provider, retry: retry,
            timeouts: configuration.timeouts, clock: configuration.clock, logger: configuration.logger,
            observer: configuration.observer)
    }

    init(
        location: ServiceLocation, transport: any HTTPTransport, credentialProvider: any CredentialProvider,
        retry: RetryConfiguration, timeouts: HTTPTimeouts, clock: @escaping @Sendable () -> Date, logger: Logger,
        observer: (any DynamoClientObserver)? = nil
    ) {
        rateLimiter = retry.mode == .adaptive ? AdaptiveRateLimiter(now: retry.monotonicSeconds) : nil
        accountEndpoint = location.accountEndpoint
        region = location.region
        endpoint = location.endpoint
        streamsEndpoint = location.streamsEndpoint
        searchEndpoint = location.searchEndpoint
        endpointParts = URLParts(location.endpoint)
        streamsEndpointParts = URLParts(location.streamsEndpoint)
        searchEndpointParts = URLParts(location.searchEndpoint)
        self.transport = transport
        self.credentialProvider = credentialProvider
        self.retry = retry
        retryTokens = RetryTokenBucket(capacity: retry.tokenBucketCapacity)
        self.timeouts = timeouts
        self.clock = clock
        self.logger = logger
        self.observer = observer
    }

    /// A client for a `localdynamo` (or DynamoDB Local) server on this machine.
    ///
    /// Uses `http://127.0.0.1:<port>`, region `us-east-1` and fixed dummy credentials; nothing
    /// is read from the environment.
    ///
    /// ```swift
    /// let client = DynamoClient.local(port: 8000)
    /// ```
    ///
    /// - Parameters:
    ///   - port: The server's port (default 8000).
    ///   - host: The server's host (default `127.0.0.1`).
    ///   - region: The region to sign for (default `us-east-1`).
    ///   - transport: The transport to send through; `nil` (the default) creates
    ///     ``defaultTransport(maximumConnections:environment:caBundle:)``. An in-process
    ///     transport (`DynamoEmbedded`'s `EmbeddedTransport`) reaches the server with no socket.
    public static func local(
        port: Int = 8000, host: String = "127.0.0.1", region: String = "us-east-1", transport: (any HTTPTransport)? = nil
    ) -> DynamoClient {
        let url = "http://\(host):\(port)/"
        return DynamoClient(
            location: ServiceLocation(region: region, endpoint: url, streamsEndpoint: url),
            transport: transport ?? defaultTransport(),
            credentialProvider: StaticCredentialProvider(
                AWSCredentials(accessKeyID: "localdynamo", secretAccessKey: "localdynamo")),
            retry: RetryConfiguration(), timeouts: HTTPTimeouts(), clock: { Date() },
            logger: Logger(label: "DynamoClient"))
    }

    /// Tokens left in the client's retry bucket (500 when nothing has failed recently).
    public var availableRetryTokens: Int { retryTokens.tokens }
}

extension ServiceLocation {
    init(region: String, endpoint: String, streamsEndpoint: String) {
        self.region = region
        self.endpoint = endpoint
        self.searchEndpoint = endpoint
        self.streamsEndpoint = streamsEndpoint
    }
}
