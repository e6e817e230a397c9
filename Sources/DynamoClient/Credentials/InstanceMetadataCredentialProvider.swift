/// Credentials of the EC2 instance role from the instance metadata service, IMDSv2 only:
/// `PUT /latest/api/token`, then `GET /latest/meta-data/iam/security-credentials/` for the role
/// name and `GET …/<role>` for the keys, each with the session token.
///
/// The endpoint is `AWS_EC2_METADATA_SERVICE_ENDPOINT`, else the profile's
/// `ec2_metadata_service_endpoint`, else `http://169.254.169.254` (`http://[fd00:ec2::254]` when
/// `AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE` is `IPv6`). `AWS_EC2_METADATA_DISABLED=true` turns
/// the provider off. An unreachable endpoint (not on EC2) yields `nil`, not an error.
public struct InstanceMetadataCredentialProvider: CredentialProvider {
    private let sources: ConfigurationSources
    private let transport: any HTTPTransport
    private let timeouts: HTTPTimeouts
    private let profile: String?

    /// Seconds a metadata session token lives (botocore's value).
    static let tokenTTL = "21600"

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - sources: Environment and files.
    ///   - transport: Sends the requests.
    ///   - profile: The profile for `ec2_metadata_service_endpoint`; `nil` means `AWS_PROFILE`.
    ///   - timeouts: Limits per request (default 1 s connect, 2 s total, as SDKs keep IMDS short).
    public init(sources: ConfigurationSources = .process, transport: any HTTPTransport, profile: String? = nil,
                timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(1), request: .seconds(2))) {
        self.sources = sources
        self.transport = transport
        self.profile = profile
        self.timeouts = timeouts
    }

    /// The metadata endpoint in use, without a trailing slash.
    var endpoint: String {
        let shared = SharedConfiguration(sources: sources, profile: profile)
        let configured = sources.value("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? shared["ec2_metadata_service_endpoint"]
        let mode = sources.value("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE") ?? shared["ec2_metadata_service_endpoint_mode"]
        var url = configured ?? (mode?.lowercased() == "ipv6" ? "http://[fd00:ec2::254]" : "http://169.254.169.254")
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// Fetches the role's credentials; `nil` when disabled or when the service is unreachable.
    ///
    /// - Throws: ``CredentialError`` when the service answers but with an error or no role.
    public func resolveCredentials() async throws -> AWSCredentials? {
        guard !sources.flag("AWS_EC2_METADATA_DISABLED") else { return nil }
        let base = endpoint
        let token: [UInt8]
        do {
            token = try await transport.fetch(
                HTTPRequest(method: "PUT", url: base + "/latest/api/token",
                            headers: [("X-aws-ec2-metadata-token-ttl-seconds", Self.tokenTTL)]),
                timeouts: timeouts, source: "instance metadata token endpoint")
        } catch is TransportError {
            return nil
        }
        let tokenHeader: [(name: String, value: String)] = [("X-aws-ec2-metadata-token", String(decoding: token, as: UTF8.self))]
        let listing = try await transport.fetch(
            HTTPRequest(method: "GET", url: base + "/latest/meta-data/iam/security-credentials/", headers: tokenHeader),
            timeouts: timeouts, source: "instance metadata")
        guard let role = String(decoding: listing, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map({ $0.trimmingASCIIWhitespace() }), !role.isEmpty else {
            throw CredentialError("instance metadata lists no IAM role")
        }
        let document = try await transport.fetch(
            HTTPRequest(method: "GET", url: base + "/latest/meta-data/iam/security-credentials/" + role, headers: tokenHeader),
            timeouts: timeouts, source: "instance metadata")
        return try CredentialsDocument.decode(document, source: "instance metadata")
    }
}
