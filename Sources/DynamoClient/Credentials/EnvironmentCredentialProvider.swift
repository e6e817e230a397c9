/// Credentials from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`.
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
        return try AWSCredentials(accessKeyID: keyID, secretAccessKey: secret,
                                  sessionToken: sources.value("AWS_SESSION_TOKEN"))
            .headerSafe(source: "the environment (AWS_ACCESS_KEY_ID, AWS_SESSION_TOKEN)")
    }
}

/// Credentials from the selected profile of the shared files (`aws_access_key_id`,
/// `aws_secret_access_key`, `aws_session_token`; credentials file over config file).
///
/// Profiles that obtain credentials another way (`role_arn`, `credential_process`, `sso_*`,
/// `web_identity_token_file`) are reported as unsupported rather than silently skipped.
public struct ProfileCredentialProvider: CredentialProvider {
    private let sources: ConfigurationSources
    private let profile: String?

    /// Creates a provider for a profile.
    ///
    /// - Parameters:
    ///   - profile: The profile; `nil` means `AWS_PROFILE`, else `default`.
    ///   - sources: Environment and files.
    public init(profile: String? = nil, sources: ConfigurationSources = .process) {
        self.sources = sources
        self.profile = profile
    }

    /// The profile's keys; `nil` when the default profile is absent or has no keys.
    ///
    /// - Throws: ``CredentialError`` when an explicitly chosen profile does not exist, when a
    ///   key id has no secret, or when the profile needs an unsupported mechanism.
    public func resolveCredentials() async throws -> AWSCredentials? {
        let shared = SharedConfiguration(sources: sources, profile: profile)
        guard shared.profileExists else {
            if shared.profileIsExplicit { throw CredentialError("profile '\(shared.profileName)' not found") }
            return nil
        }
        if let keyID = shared["aws_access_key_id"] {
            guard let secret = shared["aws_secret_access_key"] else {
                throw CredentialError("profile '\(shared.profileName)' has aws_access_key_id but no aws_secret_access_key")
            }
            return try AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: shared["aws_session_token"])
                .headerSafe(source: "profile '\(shared.profileName)'")
        }
        for unsupported in ["role_arn", "credential_process", "sso_session", "sso_start_url", "web_identity_token_file"]
        where shared[unsupported] != nil {
            throw CredentialError("profile '\(shared.profileName)' uses \(unsupported), which DynamoClient does not support")
        }
        return nil
    }
}
