import Foundation

/// Tries providers in order and returns the first credentials found.
///
/// A provider that returns `nil` is not configured and the chain moves on; one that throws is
/// configured but broken, and the error stops the chain (as in the AWS SDKs, so a typo in a
/// profile is reported instead of silently falling through to other credentials).
public struct CredentialProviderChain: CredentialProvider {
    /// The providers, in order.
    public let providers: [any CredentialProvider]

    /// Creates a chain.
    public init(_ providers: [any CredentialProvider]) {
        self.providers = providers
    }

    /// The AWS SDKs' default order: environment, shared profile files, container endpoint,
    /// instance metadata (IMDSv2).
    ///
    /// - Parameters:
    ///   - sources: Environment and files.
    ///   - profile: A profile chosen in code; `nil` means `AWS_PROFILE`, else `default`.
    ///   - transport: Used by the container and instance metadata providers.
    public static func `default`(sources: ConfigurationSources = .process, profile: String? = nil,
                                 transport: any HTTPTransport) -> CredentialProviderChain {
        CredentialProviderChain([
            EnvironmentCredentialProvider(sources: sources),
            ProfileCredentialProvider(profile: profile, sources: sources),
            ContainerCredentialProvider(sources: sources, transport: transport),
            InstanceMetadataCredentialProvider(sources: sources, transport: transport, profile: profile),
        ])
    }

    /// The first provider's credentials, `nil` when none has any.
    public func resolveCredentials() async throws -> AWSCredentials? {
        for provider in providers {
            if let credentials = try await provider.resolveCredentials() { return credentials }
        }
        return nil
    }
}

/// Caches another provider's credentials and refreshes them shortly before they expire.
///
/// Refreshes are single-flight: concurrent callers that find the cache stale wait for one
/// shared refresh instead of each calling the provider. Credentials without an expiration are
/// kept for the cache's lifetime. When a refresh fails while the cached credentials are still
/// valid, the cached ones are returned.
///
/// ```swift
/// let cached = CachingCredentialProvider(CredentialProviderChain.default(transport: CurlTransport()))
/// ```
public actor CachingCredentialProvider: CredentialProvider {
    private let base: any CredentialProvider
    private let refreshWindow: Duration
    private let now: @Sendable () -> Date
    private var cached: AWSCredentials?
    private var refresh: Task<AWSCredentials?, any Error>?

    /// Wraps a provider.
    ///
    /// - Parameters:
    ///   - base: The provider to cache.
    ///   - refreshWindow: How long before expiry to refresh (default 5 minutes).
    ///   - now: The clock (injected in tests).
    public init(_ base: any CredentialProvider, refreshWindow: Duration = .seconds(300),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.refreshWindow = refreshWindow
        self.now = now
    }

    /// Cached credentials while fresh, else the base provider's (fetched once for all waiters).
    public func resolveCredentials() async throws -> AWSCredentials? {
        if let cached, !isStale(cached) { return cached }
        let task: Task<AWSCredentials?, any Error>
        if let refresh {
            task = refresh
        } else {
            let base = self.base
            task = Task { try await base.resolveCredentials() }
            refresh = task
        }
        do {
            let fresh = try await task.value
            if refresh == task {
                refresh = nil
                cached = fresh
            }
            return fresh
        } catch {
            if refresh == task { refresh = nil }
            if let cached, let expiration = cached.expiration, expiration > now() { return cached }
            throw error
        }
    }

    private func isStale(_ credentials: AWSCredentials) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        let window = Double(refreshWindow.components.seconds) + Double(refreshWindow.components.attoseconds) / 1e18
        return expiration.timeIntervalSince(now()) <= window
    }
}
