import Foundation

/// Resolves one profile's credentials in botocore's order:
///
/// 1. `role_arn` (without `web_identity_token_file`): STS `AssumeRole` with the credentials of
///    `source_profile` (resolved the same way, so chains work; a cycle is refused) or of
///    `credential_source` (`Environment`, `Ec2InstanceMetadata`, `EcsContainer`);
/// 2. web identity: `AWS_WEB_IDENTITY_TOKEN_FILE` / `AWS_ROLE_ARN` (for the selected profile
///    only) or `web_identity_token_file` / `role_arn`;
/// 3. IAM Identity Center: `sso_session` or `sso_start_url`;
/// 4. `aws_access_key_id` / `aws_secret_access_key` when the key id is in the credentials file;
/// 5. `credential_process`;
/// 6. the same keys in the config file.
struct ProfileCredentialResolver: Sendable {
    let sources: ConfigurationSources
    let transport: any HTTPTransport
    let sts: STSClient
    let now: @Sendable () -> Date

    /// The profile's credentials; `nil` when it configures none.
    ///
    /// - Parameters:
    ///   - profile: The profile.
    ///   - useEnvironment: Whether the web identity variables apply (the selected profile).
    ///   - chain: The profiles that led here through `source_profile`, to refuse cycles.
    func credentials(_ profile: SharedConfiguration, useEnvironment: Bool, chain: [String] = []) async throws -> AWSCredentials? {
        let name = profile.profileName
        if profile.profileExists, let roleARN = profile["role_arn"], profile["web_identity_token_file"] == nil {
            return try await assumeRole(roleARN, profile: profile, chain: chain + [name])
        }
        if let credentials = try await WebIdentityCredentialProvider.credentials(
            profile: profile, useEnvironment: useEnvironment, sources: sources, sts: sts)
        {
            return credentials
        }
        guard profile.profileExists else { return nil }
        if let credentials = try await SSOCredentialProvider.credentials(for: profile, sources: sources, transport: transport, now: now) {
            return credentials
        }
        // Keys whose id is in the credentials file (the secret may sit in the config file: the
        // files' properties merge, as in the other SDKs).
        if profile.credentialsFileProperties["aws_access_key_id"] != nil,
            let credentials = try Self.staticKeys(profile.properties, profile: profile)
        {
            return credentials
        }
        if let command = profile["credential_process"] {
            return try await ProcessCredentialProvider(command: command).resolveCredentials()
        }
        return try Self.staticKeys(profile.properties, profile: profile)
    }

    private func assumeRole(_ roleARN: String, profile: SharedConfiguration, chain: [String]) async throws -> AWSCredentials {
        let name = profile.profileName
        if profile["mfa_serial"] != nil {
            throw CredentialError(
                "profile '\(name)' sets mfa_serial: DynamoClient cannot prompt for an MFA code; "
                    + "use credential_process, IAM Identity Center or credentials from `aws sts assume-role` instead")
        }
        let source: AWSCredentials?
        switch (profile["source_profile"], profile["credential_source"]) {
        case (.some, .some):
            throw CredentialError("profile '\(name)' sets both source_profile and credential_source")
        case (nil, nil):
            throw CredentialError("profile '\(name)' has role_arn but neither source_profile nor credential_source")
        case (let sourceName?, nil):
            source = try await sourceProfileCredentials(sourceName, of: profile, chain: chain)
        case (nil, let credentialSource?):
            source = try await credentialSourceCredentials(credentialSource, profile: name)
        }
        guard let source else {
            throw CredentialError("profile '\(name)': its source of credentials found none to assume \(roleARN) with")
        }
        let request = AssumeRoleRequest(
            roleARN: roleARN, sessionName: profile["role_session_name"] ?? WebIdentityCredentialProvider.defaultSessionName(),
            externalID: profile["external_id"], durationSeconds: try WebIdentityCredentialProvider.durationSeconds(profile))
        return try await sts.assumeRole(request, with: source)
    }

    private func sourceProfileCredentials(
        _ sourceName: String, of profile: SharedConfiguration,
        chain: [String]
    ) async throws -> AWSCredentials? {
        // A profile may name itself as its source when it holds the long-term keys.
        if sourceName == profile.profileName, let keys = try Self.staticKeys(profile.properties, profile: profile) {
            return keys
        }
        if chain.contains(sourceName) {
            throw CredentialError("source_profile cycle: \((chain + [sourceName]).joined(separator: " -> "))")
        }
        guard let source = profile.profile(named: sourceName) else {
            throw CredentialError("profile '\(profile.profileName)' names source_profile '\(sourceName)', which does not exist")
        }
        return try await credentials(source, useEnvironment: false, chain: chain)
    }

    private func credentialSourceCredentials(_ name: String, profile: String) async throws -> AWSCredentials? {
        switch name {
        case "Environment":
            return try await EnvironmentCredentialProvider(sources: sources).resolveCredentials()
        case "Ec2InstanceMetadata":
            return try await InstanceMetadataCredentialProvider(sources: sources, transport: transport, profile: profile).resolveCredentials()
        case "EcsContainer":
            return try await ContainerCredentialProvider(sources: sources, transport: transport).resolveCredentials()
        default:
            throw CredentialError("profile '\(profile)' has credential_source = \(name); expected Environment, Ec2InstanceMetadata or EcsContainer")
        }
    }

    /// `aws_access_key_id`, `aws_secret_access_key`, `aws_session_token` and `aws_account_id`
    /// from a set of properties; `nil` without a key id.
    static func staticKeys(_ properties: [String: String], profile: SharedConfiguration) throws -> AWSCredentials? {
        func value(_ key: String) -> String? { properties[key].flatMap { $0.isEmpty ? nil : $0 } }
        guard let keyID = value("aws_access_key_id") else { return nil }
        guard let secret = value("aws_secret_access_key") else {
            throw CredentialError("profile '\(profile.profileName)' has aws_access_key_id but no aws_secret_access_key")
        }
        return try AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: value("aws_session_token"),
            accountID: value("aws_account_id")
        )
        .headerSafe(source: "profile '\(profile.profileName)'")
    }
}
