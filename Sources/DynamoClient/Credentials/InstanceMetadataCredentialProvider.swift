import AWSSigV4
/// Credentials of the EC2 instance role from the instance metadata service, IMDSv2 only:
/// `PUT /latest/api/token`, then `GET /latest/meta-data/iam/security-credentials/` for the role
/// name and `GET …/<role>` for the keys, each with the session token, never through a proxy.
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

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - sources: Environment and files.
    ///   - transport: Sends the requests.
    ///   - profile: The profile for `ec2_metadata_service_endpoint`; `nil` means `AWS_PROFILE`.
    ///   - timeouts: Limits per request (default 1 s connect, 2 s total, as SDKs keep IMDS short).
    public init(
        sources: ConfigurationSources = .process, transport: any HTTPTransport, profile: String? = nil,
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(1), request: .seconds(2))
    ) {
        self.sources = sources
        self.transport = transport
        self.profile = profile
        self.timeouts = timeouts
    }

    /// The metadata service client, `nil` when disabled.
    var client: InstanceMetadataClient? {
        InstanceMetadataClient(sources: sources, profile: profile, transport: transport, timeouts: timeouts)
    }

    /// Fetches the role's credentials; `nil` when disabled or when the service is unreachable.
    ///
    /// - Throws: ``CredentialError`` naming the instance metadata service when it answers with
    ///   an error or no role, or stops answering after the token.
    public func resolveCredentials() async throws -> AWSCredentials? {
        guard let client, let token = try await client.sessionToken() else { return nil }
        let listing = try await client.get("/latest/meta-data/iam/security-credentials/", token: token)
        guard let role = listing.split(whereSeparator: \.isNewline).first.map({ $0.trimmingASCIIWhitespace() }),
            !role.isEmpty
        else {
            throw CredentialError("instance metadata lists no IAM role")
        }
        let document = try await client.get("/latest/meta-data/iam/security-credentials/" + role, token: token)
        return try CredentialsDocument.decode(Array(document.utf8), source: "instance metadata")
    }
}
