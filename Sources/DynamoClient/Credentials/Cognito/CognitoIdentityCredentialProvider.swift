import Foundation

/// Temporary credentials from an Amazon Cognito identity pool: what an app uses instead of
/// long-term keys.
///
/// - `GetId` runs once: the identity id is cached and persisted through a
///   ``CognitoIdentityIDStore`` (back it with the keychain), so the app keeps its identity across
///   launches. A developer-authenticated identity comes from the app's back end instead.
/// - `GetCredentialsForIdentity` gives credentials that are cached and refreshed before they
///   expire by one caller while the others keep using the current ones (a
///   ``CachingCredentialProvider`` inside; the client does not wrap it again).
/// - Logins (provider name → token, e.g. `"accounts.google.com"` → an ID token) can be
///   changed when the user signs in or out: the next request uses credentials for them.
/// - A stored identity id that Cognito no longer accepts (deleted, or linked elsewhere) is
///   forgotten and `GetId` asked again, once.
/// - The endpoint: `endpoint` in code, `AWS_ENDPOINT_URL_COGNITO_IDENTITY`, `AWS_ENDPOINT_URL`,
///   the profile's `[services]` `cognito_identity` or `endpoint_url`, else
///   `https://cognito-identity.<region>.amazonaws.com`.
///
/// ```swift
/// let credentials = try CognitoIdentityCredentialProvider(
///     identityPoolID: "eu-west-1:00000000-0000-0000-0000-000000000000", region: "eu-west-1")
/// var configuration = DynamoClient.Configuration(region: "eu-west-1")
/// configuration.credentialProvider = credentials
/// let client = try DynamoClient(configuration: configuration)
/// // After the user signed in with Apple:
/// await credentials.setLogins(["appleid.apple.com": identityToken])
/// ```
public actor CognitoIdentityCredentialProvider: SelfCachingCredentialProvider {
    /// The identity pool, `<region>:<uuid>`.
    public nonisolated let identityPoolID: String
    private let resolver: CognitoIdentityResolver
    private let refreshWindow: Duration
    private let now: @Sendable () -> Date
    private var cache: CachingCredentialProvider

    /// A provider for unauthenticated (empty `logins`) or authenticated identities.
    ///
    /// - Parameters:
    ///   - identityPoolID: The identity pool id.
    ///   - region: The pool's region (it names the endpoint).
    ///   - logins: Identity provider name → token; empty for an unauthenticated identity.
    ///   - sources: Where the endpoint settings are read (default: the process).
    ///   - profile: The shared-file profile (default `AWS_PROFILE`, else `default`).
    ///   - endpoint: The Cognito Identity endpoint, overriding the resolution.
    ///   - identityStore: Where the identity id is kept (default: in memory).
    ///   - transport: The HTTP transport (default: the platform's).
    ///   - refreshWindow: How long before expiry to refresh (default 5 minutes).
    ///   - now: The clock (injected in tests).
    /// - Throws: ``DynamoClientError/invalidRegion(_:)`` or ``DynamoClientError/invalidEndpoint(_:)``.
    public init(
        identityPoolID: String, region: String, logins: [String: String] = [:],
        sources: ConfigurationSources = .process, profile: String? = nil, endpoint: String? = nil,
        identityStore: any CognitoIdentityIDStore = InMemoryCognitoIdentityIDStore(),
        transport: (any HTTPTransport)? = nil, refreshWindow: Duration = .seconds(300),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(DynamoClientError) {
        try self.init(
            identityPoolID: identityPoolID, region: region, mode: .logins(logins), sources: sources, profile: profile,
            endpoint: endpoint, identityStore: identityStore, transport: transport,
            refreshWindow: refreshWindow, now: now)
    }

    /// A provider for a developer-authenticated identity: `developerIdentity` is called (for
    /// instance, to the app's back end, which calls `GetOpenIdTokenForDeveloperIdentity`)
    /// whenever credentials are due, and its token is sent as the `cognito-identity.amazonaws.com`
    /// login.
    ///
    /// - Parameters:
    ///   - identityPoolID: The identity pool id.
    ///   - region: The pool's region.
    ///   - developerIdentity: Returns the identity id and OpenID token.
    ///   - sources: Where the endpoint settings are read (default: the process).
    ///   - endpoint: The Cognito Identity endpoint, overriding the resolution.
    ///   - identityStore: Where the identity id is kept (default: in memory).
    ///   - transport: The HTTP transport (default: the platform's).
    /// - Throws: ``DynamoClientError/invalidRegion(_:)`` or ``DynamoClientError/invalidEndpoint(_:)``.
    public init(
        identityPoolID: String, region: String,
        developerIdentity: @escaping @Sendable () async throws -> CognitoDeveloperIdentity,
        sources: ConfigurationSources = .process, endpoint: String? = nil,
        identityStore: any CognitoIdentityIDStore = InMemoryCognitoIdentityIDStore(),
        transport: (any HTTPTransport)? = nil
    ) throws(DynamoClientError) {
        try self.init(
            identityPoolID: identityPoolID, region: region, mode: .developer(developerIdentity), sources: sources,
            profile: nil, endpoint: endpoint, identityStore: identityStore, transport: transport,
            refreshWindow: .seconds(300), now: { Date() })
    }

    private init(
        identityPoolID: String, region: String, mode: CognitoIdentityResolver.Mode, sources: ConfigurationSources,
        profile: String?, endpoint: String?, identityStore: any CognitoIdentityIDStore,
        transport: (any HTTPTransport)?, refreshWindow: Duration,
        now: @escaping @Sendable () -> Date
    ) throws(DynamoClientError) {
        let service = CognitoIdentityService(
            endpoint: try CognitoIdentityService.endpoint(code: endpoint, region: region, sources: sources, profile: profile),
            transport: transport ?? DynamoClient.defaultTransport(maximumConnections: 2),
            timeouts: HTTPTimeouts(connect: .seconds(5), request: .seconds(15)))
        let resolver = CognitoIdentityResolver(poolID: identityPoolID, service: service, store: identityStore)
        self.identityPoolID = identityPoolID
        self.resolver = resolver
        self.refreshWindow = refreshWindow
        self.now = now
        cache = Self.cache(resolver: resolver, mode: mode, refreshWindow: refreshWindow, now: now)
    }

    /// Credentials for the identity, cached and refreshed before expiry.
    ///
    /// - Throws: ``CredentialError`` when Cognito cannot be reached, or the service's error
    ///   (`NotAuthorizedException`, ...) as a ``CredentialError``.
    public func resolveCredentials() async throws -> AWSCredentials? {
        try await cache.resolveCredentials()
    }

    /// Replaces the logins (after the user signed in, out, or a token was renewed): the next
    /// request gets credentials for them. The identity id is kept, so Cognito links a signed-in
    /// user to the identity the app had before.
    public func setLogins(_ logins: [String: String]) {
        cache = Self.cache(resolver: resolver, mode: .logins(logins), refreshWindow: refreshWindow, now: now)
    }

    /// The identity id, once `GetId` (or the developer identity) has given one.
    public var identityID: String? {
        get async { await resolver.currentIdentityID() }
    }

    private static func cache(
        resolver: CognitoIdentityResolver, mode: CognitoIdentityResolver.Mode,
        refreshWindow: Duration, now: @escaping @Sendable () -> Date
    ) -> CachingCredentialProvider {
        CachingCredentialProvider(CognitoCredentialFetch(resolver: resolver, mode: mode), refreshWindow: refreshWindow, now: now)
    }
}

/// A provider that caches and refreshes its own credentials: ``DynamoClient`` uses it as given
/// instead of wrapping it in a ``CachingCredentialProvider``.
public protocol SelfCachingCredentialProvider: CredentialProvider {}

extension CachingCredentialProvider: SelfCachingCredentialProvider {}

/// One uncached fetch of Cognito credentials with fixed logins (or a developer identity).
struct CognitoCredentialFetch: CredentialProvider {
    let resolver: CognitoIdentityResolver
    let mode: CognitoIdentityResolver.Mode

    func resolveCredentials() async throws -> AWSCredentials? {
        try await resolver.credentials(mode)
    }
}
