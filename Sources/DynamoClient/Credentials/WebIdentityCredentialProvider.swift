import Foundation

/// Credentials for a role assumed with a web identity token (EKS IAM roles for service
/// accounts, GitHub Actions OIDC, ...): `AWS_WEB_IDENTITY_TOKEN_FILE`, `AWS_ROLE_ARN` and
/// optionally `AWS_ROLE_SESSION_NAME`, else the profile's `web_identity_token_file`,
/// `role_arn` and `role_session_name` (each variable wins over its profile key, as in
/// botocore), through STS `AssumeRoleWithWebIdentity`, unsigned.
///
/// The token file is read again on every refresh: EKS rotates it.
public struct WebIdentityCredentialProvider: CredentialProvider {
    private let profile: String?
    private let sources: ConfigurationSources
    private let transport: any HTTPTransport

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - profile: The profile; `nil` means `AWS_PROFILE`, else `default`.
    ///   - sources: Environment and files.
    ///   - transport: Sends the STS request.
    public init(profile: String? = nil, sources: ConfigurationSources = .process, transport: any HTTPTransport) {
        self.profile = profile
        self.sources = sources
        self.transport = transport
    }

    /// The role's credentials; `nil` when no token file is configured.
    ///
    /// - Throws: ``CredentialError`` when the role ARN is missing, the token file cannot be
    ///   read, or STS answers with an error (its code and message).
    public func resolveCredentials() async throws -> AWSCredentials? {
        let shared = SharedConfiguration(sources: sources, profile: profile)
        return try await Self.credentials(
            profile: shared, useEnvironment: true, sources: sources,
            sts: STSClient(sources: sources, profile: shared, transport: transport))
    }

    static func credentials(
        profile: SharedConfiguration, useEnvironment: Bool, sources: ConfigurationSources,
        sts: STSClient
    ) async throws -> AWSCredentials? {
        func setting(_ variable: String, _ key: String) -> String? {
            (useEnvironment ? sources.value(variable) : nil) ?? (profile.profileExists ? profile[key] : nil)
        }
        guard let tokenFile = setting("AWS_WEB_IDENTITY_TOKEN_FILE", "web_identity_token_file") else { return nil }
        guard let roleARN = setting("AWS_ROLE_ARN", "role_arn") else {
            throw CredentialError(
                "a web identity token file is configured (\(tokenFile)) but no role ARN "
                    + "(AWS_ROLE_ARN or the profile's role_arn)")
        }
        guard let token = sources.readFile(sources.expandingHome(tokenFile))?.trimmingASCIIWhitespace(), !token.isEmpty else {
            throw CredentialError("cannot read the web identity token file \(tokenFile)")
        }
        let sessionName = setting("AWS_ROLE_SESSION_NAME", "role_session_name") ?? defaultSessionName()
        return try await sts.assumeRoleWithWebIdentity(
            roleARN: roleARN, sessionName: sessionName, token: token,
            durationSeconds: try durationSeconds(profile))
    }

    /// The SDKs' default session name: `dynamoclient-session-<seconds since 1970>`.
    static func defaultSessionName() -> String {
        "dynamoclient-session-\(Int(Date().timeIntervalSince1970))"
    }

    /// The profile's `duration_seconds`, `nil` when unset.
    ///
    /// - Throws: ``CredentialError`` for a value that is not a whole number.
    static func durationSeconds(_ profile: SharedConfiguration) throws -> Int? {
        guard let text = profile["duration_seconds"] else { return nil }
        guard let value = Int(text), value > 0 else {
            throw CredentialError("profile '\(profile.profileName)' has duration_seconds = \(text), which is not a positive whole number")
        }
        return value
    }
}
