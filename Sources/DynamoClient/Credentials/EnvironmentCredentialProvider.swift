import Foundation

/// Credentials from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, with
/// `AWS_ACCOUNT_ID` as their account id.
///
/// ```swift
/// let provider = EnvironmentCredentialProvider(sources: .process)
/// ```
public struct EnvironmentCredentialProvider: CredentialProvider {
    private let sources: ConfigurationSources

    /// Creates a provider that reads the given environment.
    public init(sources: ConfigurationSources = .process) {
        self.sources = sources
    }

    /// The environment's credentials, `nil` when `AWS_ACCESS_KEY_ID` is unset.
    ///
    /// - Throws: ``CredentialError`` when the key id is set without a secret key, or when the
    ///   key id or token contains a line break.
    public func resolveCredentials() async throws -> AWSCredentials? {
        guard let keyID = sources.value("AWS_ACCESS_KEY_ID") else { return nil }
        guard let secret = sources.value("AWS_SECRET_ACCESS_KEY") else {
            throw CredentialError("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
        }
        return try AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret,
            sessionToken: sources.value("AWS_SESSION_TOKEN"), accountID: sources.value("AWS_ACCOUNT_ID")
        )
        .headerSafe(source: "the environment (AWS_ACCESS_KEY_ID, AWS_SESSION_TOKEN)")
    }
}

/// Credentials from the selected profile of the shared files, in botocore's order for a
/// profile (see the table in the README):
///
/// 1. `role_arn` with `source_profile` (chains of them; cycles refused) or `credential_source`
///    (`Environment`, `Ec2InstanceMetadata`, `EcsContainer`): STS `AssumeRole`, with
///    `role_session_name`, `external_id`, `duration_seconds` (`mfa_serial` is refused: there
///    is no prompt);
/// 2. web identity: `AWS_WEB_IDENTITY_TOKEN_FILE` + `AWS_ROLE_ARN` (+ `AWS_ROLE_SESSION_NAME`),
///    else the profile's `web_identity_token_file` + `role_arn`;
/// 3. IAM Identity Center: `sso_session` or the legacy `sso_start_url`;
/// 4. `aws_access_key_id` / `aws_secret_access_key` / `aws_session_token` (and
///    `aws_account_id`) in the credentials file;
/// 5. `credential_process` (macOS and Linux);
/// 6. the same keys in the config file.
///
/// STS, OIDC and the SSO portal are reached through `transport`.
public struct ProfileCredentialProvider: CredentialProvider {
    private let sources: ConfigurationSources
    private let profile: String?
    private let transport: (any HTTPTransport)?
    private let now: @Sendable () -> Date

    /// Creates a provider for a profile.
    ///
    /// - Parameters:
    ///   - profile: The profile; `nil` means `AWS_PROFILE`, else `default`.
    ///   - sources: Environment and files.
    ///   - transport: Sends STS, OIDC and SSO portal requests (`nil`: a default transport is
    ///     made when one is needed).
    ///   - now: The clock for IAM Identity Center token expiry (injected in tests).
    public init(
        profile: String? = nil, sources: ConfigurationSources = .process, transport: (any HTTPTransport)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.sources = sources
        self.profile = profile
        self.transport = transport
        self.now = now
    }

    /// The profile's credentials; `nil` when the default profile is absent (and no web
    /// identity variables are set) or configures none.
    ///
    /// - Throws: ``CredentialError`` when an explicitly chosen profile does not exist, when a
    ///   key id has no secret, or when the profile's mechanism fails (with STS's, the
    ///   portal's or the command's message).
    public func resolveCredentials() async throws -> AWSCredentials? {
        let shared = SharedConfiguration(sources: sources, profile: profile)
        if !shared.profileExists, shared.profileIsExplicit {
            throw CredentialError("profile '\(shared.profileName)' not found")
        }
        let transport = self.transport ?? DynamoClient.defaultTransport(maximumConnections: 2)
        let resolver = ProfileCredentialResolver(
            sources: sources, transport: transport,
            sts: STSClient(sources: sources, profile: shared, transport: transport), now: now)
        return try await resolver.credentials(shared, useEnvironment: true)
    }
}
