import DynamoAPI
import Foundation

/// The IAM Identity Center access token the AWS CLI caches after `aws sso login`, in
/// `~/.aws/sso/cache/<hex SHA-1 of the sso-session name, or of the start URL for the legacy
/// form>.json`, and its refresh with the OIDC `CreateToken` refresh-token grant.
struct SSOTokenCache: Sendable {
    /// The cache file's path.
    let path: String
    /// The `sso-session` name; `nil` for the legacy `sso_start_url` form, which the CLI never
    /// refreshes either.
    let sessionName: String?
    /// The OIDC region (`sso_region`).
    let region: String
    let sources: ConfigurationSources
    let profile: SharedConfiguration
    let transport: any HTTPTransport
    let now: @Sendable () -> Date

    /// Tokens are refreshed this long before they expire (the AWS CLI's window).
    static let refreshWindow: TimeInterval = 15 * 60

    init(
        sessionName: String?, startURL: String, region: String, sources: ConfigurationSources,
        profile: SharedConfiguration, transport: any HTTPTransport, now: @escaping @Sendable () -> Date
    ) {
        let directory = sources.expandingHome("~/.aws/sso/cache")
        path = directory + "/" + SHA1.hex(sessionName ?? startURL) + ".json"
        self.sessionName = sessionName
        self.region = region
        self.sources = sources
        self.profile = profile
        self.transport = transport
        self.now = now
    }

    /// A valid access token: the cached one, refreshed (and written back) when it expires
    /// within ``refreshWindow`` and the cache holds a refresh token.
    ///
    /// - Throws: ``CredentialError`` naming `aws sso login --profile <profile>` when there is no
    ///   cached token, or it expired and cannot be refreshed.
    func accessToken() async throws -> String {
        let login = "run 'aws sso login --profile \(profile.profileName)'"
        guard let text = sources.readFile(path), let json = try? JSONValue(parsing: text), var members = json.objectValue,
            let token = members["accessToken"]?.stringValue, let expiresText = members["expiresAt"]?.stringValue,
            let expiresAt = Self.parseDate(expiresText)
        else {
            throw CredentialError("no IAM Identity Center token cached in \(path); \(login)")
        }
        let time = now()
        if expiresAt.timeIntervalSince(time) > Self.refreshWindow { return token }
        if sessionName != nil, let refreshed = try? await refresh(members, at: time) {
            members = refreshed
            _ = sources.writeFile(path, JSONValue.object(members).serialized)
            if let newToken = members["accessToken"]?.stringValue { return newToken }
        }
        guard expiresAt > time else {
            throw CredentialError("the IAM Identity Center token in \(path) expired and could not be refreshed; \(login)")
        }
        return token
    }

    /// The cache's members after an OIDC `CreateToken` refresh-token grant; `nil` when the
    /// cache has no refresh token or the client registration expired.
    private func refresh(_ members: [String: JSONValue], at time: Date) async throws -> [String: JSONValue]? {
        guard let clientID = members["clientId"]?.stringValue, let secret = members["clientSecret"]?.stringValue,
            let refreshToken = members["refreshToken"]?.stringValue
        else { return nil }
        if let registration = members["registrationExpiresAt"]?.stringValue.flatMap(Self.parseDate), registration <= time {
            return nil
        }
        let body = JSONValue.object([
            "grantType": .string("refresh_token"), "clientId": .string(clientID),
            "clientSecret": .string(secret), "refreshToken": .string(refreshToken),
        ]).serialized
        let base =
            ServiceLocation.configuredEndpoint(envSuffix: "SSO_OIDC", service: "sso_oidc", sources: sources, profile: profile)
            ?? "https://oidc.\(region).\(ServiceLocation.domain(region: region))"
        let request = HTTPRequest(
            method: "POST", url: base.trimmingTrailingSlashes() + "/token",
            headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        let answer = try await transport.fetch(request, timeouts: HTTPTimeouts(), source: "IAM Identity Center OIDC CreateToken")
        guard let json = try? JSONValue(parsing: answer), let accessToken = json["accessToken"]?.stringValue,
            case .number(let seconds)? = json["expiresIn"], let expiresIn = Double(seconds)
        else { return nil }
        var updated = members
        updated["accessToken"] = .string(accessToken)
        updated["expiresAt"] = .string(now().addingTimeInterval(expiresIn).formatted(.iso8601))
        if let newRefreshToken = json["refreshToken"]?.stringValue { updated["refreshToken"] = .string(newRefreshToken) }
        return updated
    }

    /// `2026-01-01T00:00:00Z`, with fractional seconds, or the older CLI's `…UTC` suffix.
    static func parseDate(_ text: String) -> Date? {
        let normalized = text.hasSuffix("UTC") ? String(text.dropLast(3)) + "Z" : text
        return CredentialsDocument.parseTimestamp(normalized)
    }
}

extension String {
    /// The text without trailing `/`.
    func trimmingTrailingSlashes() -> String {
        var text = self
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
