import AWSSigV4
/// The selected profile of the shared AWS files, merged: `~/.aws/config` (or
/// `AWS_CONFIG_FILE`) and `~/.aws/credentials` (or `AWS_SHARED_CREDENTIALS_FILE`), profile
/// from code, else `AWS_PROFILE`, else `default`.
///
/// A property set in both files takes the credentials file's value, as the SDKs do. Other
/// profiles (a `source_profile`) and `[sso-session]` sections stay reachable.
struct SharedConfiguration: Sendable, Hashable {
    /// The selected profile's name.
    var profileName: String
    /// Whether the profile was chosen explicitly (code or `AWS_PROFILE`) rather than defaulted.
    var profileIsExplicit: Bool
    /// Whether the profile exists in either file.
    var profileExists: Bool
    /// The selected profile's properties, credentials file over config file.
    var properties: [String: String]
    /// The selected profile's properties in the credentials file alone (botocore takes keys
    /// from there before `credential_process`, and keys from the config file after it).
    var credentialsFileProperties: [String: String]
    /// The `[services name]` sections of the config file.
    var services: [String: [String: String]]
    /// Both parsed files.
    private var config: ProfileFile
    private var credentials: ProfileFile

    /// Loads the files the sources point at.
    ///
    /// - Parameters:
    ///   - sources: Environment and file reader.
    ///   - profile: A profile chosen in code, overriding `AWS_PROFILE`.
    init(sources: ConfigurationSources, profile: String? = nil) {
        let explicit = profile ?? sources.value("AWS_PROFILE")
        let configPath = sources.expandingHome(sources.value("AWS_CONFIG_FILE") ?? "~/.aws/config")
        let credentialsPath = sources.expandingHome(sources.value("AWS_SHARED_CREDENTIALS_FILE") ?? "~/.aws/credentials")
        let config = sources.readFile(configPath).map { ProfileFile(parsing: $0, kind: .config) } ?? ProfileFile(parsing: "", kind: .config)
        let credentials =
            sources.readFile(credentialsPath).map { ProfileFile(parsing: $0, kind: .credentials) }
            ?? ProfileFile(parsing: "", kind: .credentials)
        self.init(name: explicit ?? "default", explicit: explicit != nil, config: config, credentials: credentials)
    }

    private init(name: String, explicit: Bool, config: ProfileFile, credentials: ProfileFile) {
        profileName = name
        profileIsExplicit = explicit
        let fromConfig = config.profiles[name]
        let fromCredentials = credentials.profiles[name]
        profileExists = fromConfig != nil || fromCredentials != nil
        properties = (fromConfig ?? [:]).merging(fromCredentials ?? [:]) { $1 }
        credentialsFileProperties = fromCredentials ?? [:]
        services = config.services
        self.config = config
        self.credentials = credentials
    }

    /// Another profile of the same files (a `source_profile`), `nil` when it does not exist.
    func profile(named name: String) -> SharedConfiguration? {
        let other = SharedConfiguration(name: name, explicit: true, config: config, credentials: credentials)
        return other.profileExists ? other : nil
    }

    /// The `[sso-session name]` section of the config file.
    func ssoSession(named name: String) -> [String: String]? {
        config.ssoSessions[name]
    }

    /// A property of the selected profile.
    subscript(_ name: String) -> String? {
        guard let value = properties[name], !value.isEmpty else { return nil }
        return value
    }

    /// A property of one service in the `[services x]` section the profile names with
    /// `services = x` (for example `endpoint_url` of `dynamodb`).
    func serviceProperty(service: String, _ name: String) -> String? {
        guard let sectionName = self["services"], let section = services[sectionName],
            let value = section["\(service).\(name)"], !value.isEmpty
        else { return nil }
        return value
    }
}
