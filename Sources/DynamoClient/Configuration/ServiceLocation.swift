/// Where requests go: the region and the endpoints of DynamoDB and DynamoDB Streams, resolved
/// once when the client is created.
struct ServiceLocation: Sendable, Hashable {
    /// The signing region.
    var region: String
    /// The DynamoDB endpoint URL (scheme, host, optional port and path).
    var endpoint: String
    /// The DynamoDB Streams endpoint URL.
    var streamsEndpoint: String

    /// Resolves region and endpoints in the AWS SDKs' order.
    ///
    /// Region: code, `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`.
    ///
    /// Endpoint: code, `AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL`, the profile's
    /// `[services]` section (`dynamodb = … endpoint_url`), the profile's `endpoint_url`, else
    /// `https://dynamodb.<region>.amazonaws.com` (`.amazonaws.com.cn` in China). The
    /// environment and profile steps are skipped when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` or
    /// the profile's `ignore_configured_endpoint_urls` is `true`.
    ///
    /// Streams resolve the same way with the service id `dynamodb_streams`
    /// (`AWS_ENDPOINT_URL_DYNAMODB_STREAMS`), except that an endpoint given in code for DynamoDB
    /// also serves Streams when no Streams endpoint is given (`localdynamo` and DynamoDB Local
    /// serve both on one port).
    ///
    /// - Throws: ``DynamoClientError/missingRegion`` when no step yields a region, and
    ///   ``DynamoClientError/invalidEndpoint(_:)`` for an endpoint that is not an `http(s)` URL.
    init(
        region codeRegion: String?, endpoint codeEndpoint: String?, streamsEndpoint codeStreamsEndpoint: String?,
        sources: ConfigurationSources, profile: SharedConfiguration
    ) throws(DynamoClientError) {
        guard let region = codeRegion ?? sources.value("AWS_REGION") ?? sources.value("AWS_DEFAULT_REGION")
                ?? profile["region"] else {
            throw .missingRegion
        }
        self.region = region
        let ignoreConfigured = sources.flag("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
            || profile["ignore_configured_endpoint_urls"]?.lowercased() == "true"
        func configured(envSuffix: String, service: String) -> String? {
            guard !ignoreConfigured else { return nil }
            return sources.value("AWS_ENDPOINT_URL_\(envSuffix)") ?? sources.value("AWS_ENDPOINT_URL")
                ?? profile.serviceProperty(service: service, "endpoint_url") ?? profile["endpoint_url"]
        }
        let domain = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        endpoint = try Self.validated(codeEndpoint ?? configured(envSuffix: "DYNAMODB", service: "dynamodb")
            ?? "https://dynamodb.\(region).\(domain)")
        streamsEndpoint = try Self.validated(codeStreamsEndpoint ?? codeEndpoint
            ?? configured(envSuffix: "DYNAMODB_STREAMS", service: "dynamodb_streams")
            ?? "https://streams.dynamodb.\(region).\(domain)")
    }

    /// Checks the URL has an `http`/`https` scheme and a host, and ends the path with `/`.
    static func validated(_ url: String) throws(DynamoClientError) -> String {
        guard let parts = URLParts(url), parts.scheme == "http" || parts.scheme == "https", parts.query == nil else {
            throw .invalidEndpoint(url)
        }
        return url.hasSuffix("/") ? url : url + "/"
    }
}
