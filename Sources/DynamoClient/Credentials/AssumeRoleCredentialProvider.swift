import Foundation

/// Credentials for a role assumed with STS `AssumeRole`, signed with another provider's
/// credentials.
///
/// Profiles with `role_arn` get this through ``ProfileCredentialProvider``; use it directly to
/// assume a role in code:
///
/// ```swift
/// let provider = AssumeRoleCredentialProvider(
///     roleARN: "arn:aws:iam::123456789012:role/reader",
///     source: EnvironmentCredentialProvider(), transport: DynamoClient.defaultTransport())
/// ```
public struct AssumeRoleCredentialProvider: CredentialProvider {
    private let request: AssumeRoleRequest
    private let source: any CredentialProvider
    private let sts: STSClient

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - roleARN: The role to assume.
    ///   - source: Supplies the credentials that sign `AssumeRole`.
    ///   - sessionName: The role session name (default `dynamoclient-session-<time>`).
    ///   - externalID: The external id the role's trust policy asks for.
    ///   - durationSeconds: How long the credentials last (STS's default: 1 hour).
    ///   - sources: Where STS's region and endpoint are resolved (`AWS_REGION`,
    ///     `AWS_ENDPOINT_URL_STS`, the profile).
    ///   - transport: Sends the request.
    public init(
        roleARN: String, source: any CredentialProvider, sessionName: String? = nil, externalID: String? = nil,
        durationSeconds: Int? = nil, sources: ConfigurationSources = .process, transport: any HTTPTransport
    ) {
        request = AssumeRoleRequest(
            roleARN: roleARN, sessionName: sessionName ?? WebIdentityCredentialProvider.defaultSessionName(),
            externalID: externalID, durationSeconds: durationSeconds)
        self.source = source
        sts = STSClient(sources: sources, profile: SharedConfiguration(sources: sources), transport: transport)
    }

    /// The role's credentials.
    ///
    /// - Throws: ``CredentialError`` when the source has no credentials or STS answers with an
    ///   error (its code and message, e.g. `AccessDenied`, `ExpiredToken`).
    public func resolveCredentials() async throws -> AWSCredentials? {
        guard let credentials = try await source.resolveCredentials() else {
            throw CredentialError("no source credentials to assume \(request.roleARN) with")
        }
        return try await sts.assumeRole(request, with: credentials)
    }
}
