import AWSSigV4
/// Credentials from the ECS / EKS container credentials endpoint.
///
/// `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` is appended to `http://169.254.170.2`; otherwise
/// `AWS_CONTAINER_CREDENTIALS_FULL_URI` is used as is (plain `http` only to a loopback address
/// or the ECS/EKS link-local hosts, as botocore allows). The `Authorization` header comes from
/// the file `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` names, else from
/// `AWS_CONTAINER_AUTHORIZATION_TOKEN`.
public struct ContainerCredentialProvider: CredentialProvider {
    private let sources: ConfigurationSources
    private let transport: any HTTPTransport
    private let timeouts: HTTPTimeouts

    /// The ECS task metadata host for relative URIs.
    static let ecsHost = "http://169.254.170.2"
    /// Hosts a full URI may reach over plain `http`.
    static let allowedHTTPHosts: Set<String> = ["169.254.170.2", "169.254.170.23", "[fd00:ec2::23]", "localhost"]

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - sources: Environment and files (for the token file).
    ///   - transport: Sends the request.
    ///   - timeouts: Limits for the endpoint (default 1 s connect, 5 s total).
    public init(
        sources: ConfigurationSources = .process, transport: any HTTPTransport,
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(1), request: .seconds(5))
    ) {
        self.sources = sources
        self.transport = transport
        self.timeouts = timeouts
    }

    /// Fetches credentials; `nil` when neither URI variable is set.
    ///
    /// The request never goes through a proxy from the environment and is tried twice.
    ///
    /// - Throws: ``CredentialError`` for a disallowed URI, an unreadable token file, a token with
    ///   a line break (never sent), an unreachable endpoint or a bad answer.
    public func resolveCredentials() async throws -> AWSCredentials? {
        let url: String
        if let relative = sources.value("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
            url = Self.ecsHost + (relative.hasPrefix("/") ? relative : "/" + relative)
        } else if let full = sources.value("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
            guard let parts = URLParts(full),
                parts.scheme == "https"
                    || (parts.scheme == "http" && Self.isAllowedHTTPHost(parts.host))
            else {
                throw CredentialError("AWS_CONTAINER_CREDENTIALS_FULL_URI must be https or a loopback/ECS/EKS host: \(full)")
            }
            url = full
        } else {
            return nil
        }
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let token = try authorizationToken() { headers.append(("Authorization", token)) }
        let request = HTTPRequest(method: "GET", url: url, headers: headers)
        let body: [UInt8]
        do {
            body = try await transport.fetch(request, timeouts: timeouts, source: Self.source)
        } catch is CredentialError {
            body = try await transport.fetch(request, timeouts: timeouts, source: Self.source)
        }
        return try CredentialsDocument.decode(body, source: Self.source)
    }

    static let source = "container credentials endpoint"

    /// The `Authorization` value: the token file's content (surrounding whitespace trimmed),
    /// else `AWS_CONTAINER_AUTHORIZATION_TOKEN`; `nil` when neither is set.
    ///
    /// - Throws: ``CredentialError`` for an unreadable file or a token with CR or LF.
    private func authorizationToken() throws(CredentialError) -> String? {
        if let tokenFile = sources.value("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") {
            guard let token = sources.readFile(tokenFile)?.trimmingASCIIWhitespace() else {
                throw CredentialError("cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE \(tokenFile)")
            }
            return try CredentialError.headerSafe(token, "the token in AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE \(tokenFile)")
        }
        guard let token = sources.value("AWS_CONTAINER_AUTHORIZATION_TOKEN") else { return nil }
        return try CredentialError.headerSafe(token, "AWS_CONTAINER_AUTHORIZATION_TOKEN")
    }

    static func isAllowedHTTPHost(_ host: String) -> Bool {
        if allowedHTTPHosts.contains(host.lowercased()) || host == "[::1]" { return true }
        return host.hasPrefix("127.")
    }
}
