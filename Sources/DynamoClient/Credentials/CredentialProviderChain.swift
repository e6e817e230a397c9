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

    /// The AWS SDKs' default order: environment keys, the profile (assume role, web identity
    /// from the environment or the profile, IAM Identity Center, keys, `credential_process`;
    /// see ``ProfileCredentialProvider``), container endpoint, instance metadata (IMDSv2).
    ///
    /// - Parameters:
    ///   - sources: Environment and files.
    ///   - profile: A profile chosen in code; `nil` means `AWS_PROFILE`, else `default`.
    ///   - transport: Used by the STS, IAM Identity Center, container and instance metadata
    ///     requests.
    public static func `default`(
        sources: ConfigurationSources = .process, profile: String? = nil,
        transport: any HTTPTransport
    ) -> CredentialProviderChain {
        CredentialProviderChain([
            EnvironmentCredentialProvider(sources: sources),
            ProfileCredentialProvider(profile: profile, sources: sources, transport: transport),
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
