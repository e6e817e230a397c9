/// The EC2 instance metadata service, IMDSv2 only: `PUT /latest/api/token` for a session
/// token, then `GET`s under `/latest/` with it. Requests never go through a proxy from the
/// environment. Shared by the credential provider and the region chain.
struct InstanceMetadataClient: Sendable {
    /// The service URL without a trailing slash.
    let endpoint: String
    let transport: any HTTPTransport
    let timeouts: HTTPTimeouts

    /// Seconds a metadata session token lives (botocore's value).
    static let tokenTTL = "21600"

    /// The endpoint: `AWS_EC2_METADATA_SERVICE_ENDPOINT`, else the profile's
    /// `ec2_metadata_service_endpoint`, else `http://169.254.169.254` (`http://[fd00:ec2::254]`
    /// when the endpoint mode is `IPv6`); `nil` when `AWS_EC2_METADATA_DISABLED` is `true`.
    init?(sources: ConfigurationSources, profile: String?, transport: any HTTPTransport, timeouts: HTTPTimeouts) {
        guard !sources.flag("AWS_EC2_METADATA_DISABLED") else { return nil }
        let shared = SharedConfiguration(sources: sources, profile: profile)
        let configured = sources.value("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? shared["ec2_metadata_service_endpoint"]
        let mode = sources.value("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE") ?? shared["ec2_metadata_service_endpoint_mode"]
        var url = configured ?? (mode?.lowercased() == "ipv6" ? "http://[fd00:ec2::254]" : "http://169.254.169.254")
        while url.hasSuffix("/") { url.removeLast() }
        endpoint = url
        self.transport = transport
        self.timeouts = timeouts
    }

    /// A session token, or `nil` when the service cannot be reached (not on EC2).
    ///
    /// - Throws: ``CredentialError`` when the service answers with an error or an unusable token.
    func sessionToken() async throws -> String? {
        let request = HTTPRequest(
            method: "PUT", url: endpoint + "/latest/api/token",
            headers: [("X-aws-ec2-metadata-token-ttl-seconds", Self.tokenTTL)], bypassesProxy: true)
        let response: HTTPResponse
        do {
            response = try await transport.send(request, timeouts: timeouts)
        } catch is TransportError {
            return nil
        }
        guard response.status == 200 else {
            throw CredentialError("instance metadata token endpoint answered HTTP \(response.status)")
        }
        return try CredentialError.headerSafe(String(decoding: response.body, as: UTF8.self), "the instance metadata session token")
    }

    /// The body of `GET <endpoint><path>` with the session token.
    ///
    /// - Throws: ``CredentialError`` naming the instance metadata service when it cannot be
    ///   reached or answers with an error.
    func get(_ path: String, token: String) async throws -> String {
        let body = try await transport.fetch(
            HTTPRequest(method: "GET", url: endpoint + path, headers: [("X-aws-ec2-metadata-token", token)]),
            timeouts: timeouts, source: "instance metadata")
        return String(decoding: body, as: UTF8.self)
    }
}
