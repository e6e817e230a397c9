import DynamoAPI
import Foundation

/// Credentials of an IAM Identity Center (SSO) permission set, for a profile configured by
/// `aws configure sso`: either `sso_session = name` with an `[sso-session name]` section
/// (`sso_start_url`, `sso_region`), or the legacy `sso_start_url` / `sso_region` in the profile;
/// both with `sso_account_id` and `sso_role_name`.
///
/// The access token comes from the AWS CLI's cache (`~/.aws/sso/cache/`); with `sso_session` it
/// is refreshed through the OIDC `CreateToken` refresh-token grant when it expires within 15
/// minutes, and the cache is written back as the CLI does. The portal's `GetRoleCredentials`
/// (`GET https://portal.sso.<region>.amazonaws.com/federation/credentials`, or
/// `AWS_ENDPOINT_URL_SSO`) then returns the role's credentials, with `sso_account_id` as their
/// account id. Without a usable token the error says to run `aws sso login --profile <name>`.
public struct SSOCredentialProvider: CredentialProvider {
    private let profileName: String?
    private let sources: ConfigurationSources
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - profile: The profile; `nil` means `AWS_PROFILE`, else `default`.
    ///   - sources: Environment and files (the token cache is written back through them).
    ///   - transport: Sends the OIDC and portal requests.
    ///   - now: The clock (injected in tests).
    public init(
        profile: String? = nil, sources: ConfigurationSources = .process, transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        profileName = profile
        self.sources = sources
        self.transport = transport
        self.now = now
    }

    /// The role's credentials; `nil` when the profile has no `sso_session` / `sso_start_url`.
    ///
    /// - Throws: ``CredentialError`` for an incomplete configuration, a token that is missing or
    ///   cannot be refreshed, or an error from the portal.
    public func resolveCredentials() async throws -> AWSCredentials? {
        try await Self.credentials(
            for: SharedConfiguration(sources: sources, profile: profileName),
            sources: sources, transport: transport, now: now)
    }

    static func isConfigured(_ profile: SharedConfiguration) -> Bool {
        profile["sso_session"] != nil || profile["sso_start_url"] != nil
    }

    static func credentials(
        for profile: SharedConfiguration, sources: ConfigurationSources,
        transport: any HTTPTransport, now: @escaping @Sendable () -> Date
    ) async throws -> AWSCredentials? {
        guard isConfigured(profile) else { return nil }
        let name = profile.profileName
        var startURL = profile["sso_start_url"]
        var region = profile["sso_region"]
        let sessionName = profile["sso_session"]
        if let sessionName {
            guard let session = profile.ssoSession(named: sessionName) else {
                throw CredentialError("profile '\(name)' names sso_session '\(sessionName)', but there is no [sso-session \(sessionName)] section")
            }
            for (key, value) in [("sso_start_url", startURL), ("sso_region", region)] {
                if let value, let fromSession = session[key], value != fromSession {
                    throw CredentialError("profile '\(name)' sets \(key) = \(value), but sso-session '\(sessionName)' says \(fromSession)")
                }
            }
            startURL = session["sso_start_url"]
            region = session["sso_region"]
        }
        let missing = [
            ("sso_start_url", startURL), ("sso_region", region),
            ("sso_account_id", profile["sso_account_id"]), ("sso_role_name", profile["sso_role_name"]),
        ]
        .filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty, let startURL, let region, let accountID = profile["sso_account_id"],
            let roleName = profile["sso_role_name"]
        else {
            throw CredentialError("profile '\(name)' is missing \(missing.joined(separator: ", ")) for IAM Identity Center")
        }
        let cache = SSOTokenCache(
            sessionName: sessionName, startURL: startURL, region: region, sources: sources,
            profile: profile, transport: transport, now: now)
        let token = try CredentialError.headerSafe(try await cache.accessToken(), "the IAM Identity Center access token")
        let base =
            ServiceLocation.configuredEndpoint(envSuffix: "SSO", service: "sso", sources: sources, profile: profile)
            ?? "https://portal.sso.\(region).\(ServiceLocation.domain(region: region))"
        let url =
            base.trimmingTrailingSlashes() + "/federation/credentials?account_id=" + SigV4Encoding.encode(accountID)
            + "&role_name=" + SigV4Encoding.encode(roleName)
        let request = HTTPRequest(method: "GET", url: url, headers: [("x-amz-sso_bearer_token", token)])
        let body: [UInt8]
        do {
            body = try await transport.fetch(request, timeouts: HTTPTimeouts(), source: "IAM Identity Center GetRoleCredentials")
        } catch let error as CredentialError where error.message.contains("HTTP 401") || error.message.contains("HTTP 403") {
            throw CredentialError("\(error.message); run 'aws sso login --profile \(name)'")
        }
        guard let json = try? JSONValue(parsing: body), let role = json["roleCredentials"],
            let keyID = role["accessKeyId"]?.stringValue, let secret = role["secretAccessKey"]?.stringValue
        else {
            throw CredentialError("IAM Identity Center GetRoleCredentials answered without roleCredentials")
        }
        var expiration: Date?
        if case .number(let milliseconds)? = role["expiration"], let value = Double(milliseconds) {
            expiration = Date(timeIntervalSince1970: value / 1000)
        }
        return try AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: role["sessionToken"]?.stringValue,
            expiration: expiration, accountID: accountID
        )
        .headerSafe(source: "IAM Identity Center")
    }
}
