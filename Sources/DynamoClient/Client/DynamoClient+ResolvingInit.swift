import AWSSigV4
extension DynamoClient {
    /// Creates a client like ``init(configuration:)``, with aws-sdk-swift's full region chain:
    /// when neither code, `AWS_REGION`, `AWS_DEFAULT_REGION` nor the profile names a region,
    /// the EC2 instance metadata service is asked (IMDSv2, never through a proxy) unless
    /// `AWS_EC2_METADATA_DISABLED` is `true`.
    ///
    /// ```swift
    /// let client = try await DynamoClient(resolving: DynamoClient.Configuration())
    /// ```
    ///
    /// - Parameter configuration: What is fixed in code.
    /// - Throws: ``DynamoClientError/missingRegion`` when no step, instance metadata included,
    ///   yields a region; otherwise as ``init(configuration:)``.
    public convenience init(resolving configuration: Configuration) async throws(DynamoClientError) {
        var configuration = configuration
        let transport = configuration.transport ?? Self.defaultTransport(maximumConnections: configuration.maximumConnections)
        configuration.transport = transport
        let shared = SharedConfiguration(sources: configuration.sources, profile: configuration.profile)
        if ServiceLocation.region(code: configuration.region, sources: configuration.sources, profile: shared) == nil {
            configuration.region = await Self.instanceMetadataRegion(
                sources: configuration.sources, profile: configuration.profile, transport: transport)
        }
        try self.init(configuration: configuration)
    }

    /// `GET /latest/meta-data/placement/region`; `nil` when disabled, unreachable or failing.
    static func instanceMetadataRegion(
        sources: ConfigurationSources, profile: String?,
        transport: any HTTPTransport
    ) async -> String? {
        guard
            let client = InstanceMetadataClient(
                sources: sources, profile: profile, transport: transport,
                timeouts: HTTPTimeouts(connect: .seconds(1), request: .seconds(2))),
            let token = try? await client.sessionToken(),
            let region = try? await client.get("/latest/meta-data/placement/region", token: token)
        else { return nil }
        let trimmed = region.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}
