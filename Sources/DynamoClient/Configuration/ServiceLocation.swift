/// Where requests go: the region and the endpoints of DynamoDB and DynamoDB Streams, resolved
/// once when the client is created.
struct ServiceLocation: Sendable, Hashable {
    /// The signing region.
    var region: String
    /// The DynamoDB endpoint URL (scheme, host, optional port and path).
    var endpoint: String
    /// Where vector searches (`SearchVectors`) go: `https://search-dynamodb.<region>.<suffix>`
    /// by DynamoDB's endpoint rules, or the configured endpoint, which serves every operation.
    var searchEndpoint: String
    /// The DynamoDB Streams endpoint URL.
    var streamsEndpoint: String
    /// How DynamoDB requests use the account-based endpoint
    /// `https://<account-id>.ddb.<region>.amazonaws.com`; `nil` when ``endpoint`` is configured
    /// (code, environment, profile), uses FIPS or dual-stack, or the partition has none.
    var accountEndpoint: AccountEndpoint?

    /// Resolves region and endpoints in the AWS SDKs' order.
    ///
    /// Region: code, `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`.
    ///
    /// Endpoint: code, `AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL`, the profile's
    /// `[services]` section (`dynamodb = … endpoint_url`), the profile's `endpoint_url`, else
    /// `https://dynamodb.<region>.amazonaws.com` (`.amazonaws.com.cn` in China;
    /// `dynamodb-fips.` with `AWS_USE_FIPS_ENDPOINT` / `use_fips_endpoint`, `.api.aws` with
    /// `AWS_USE_DUALSTACK_ENDPOINT` / `use_dualstack_endpoint`; FIPS in GovCloud keeps
    /// `dynamodb.`, whose regional endpoints are FIPS already). The environment and profile
    /// steps are skipped when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` or the profile's
    /// `ignore_configured_endpoint_urls` is `true`. Unless `AWS_ACCOUNT_ID_ENDPOINT_MODE` /
    /// `account_id_endpoint_mode` is `disabled`, requests to the default endpoint go to the
    /// account-based one when the credentials carry an account id (see ``AccountEndpoint``).
    ///
    /// Streams resolve the same way with the service id `dynamodb_streams`
    /// (`AWS_ENDPOINT_URL_DYNAMODB_STREAMS`), except that an endpoint given in code for DynamoDB
    /// also serves Streams when no Streams endpoint is given (`localdynamo` and DynamoDB Local
    /// serve both on one port).
    ///
    /// - Throws: ``DynamoClientError/missingRegion`` when no step yields a region,
    ///   ``DynamoClientError/invalidRegion(_:)`` for a region that is not a DNS label,
    ///   ``DynamoClientError/invalidEndpoint(_:)`` for an endpoint that is not an `http(s)` URL,
    ///   and ``DynamoClientError/invalidConfiguration(_:)`` when account-based endpoints are
    ///   `required` where none exist (FIPS, dual-stack, other partitions).
    init(
        region codeRegion: String?, endpoint codeEndpoint: String?, streamsEndpoint codeStreamsEndpoint: String?,
        sources: ConfigurationSources, profile: SharedConfiguration
    ) throws(DynamoClientError) {
        guard let region = Self.region(code: codeRegion, sources: sources, profile: profile) else {
            throw .missingRegion
        }
        guard Self.isValidRegion(region) else { throw .invalidRegion(region) }
        self.region = region
        func configured(envSuffix: String, service: String) -> String? {
            Self.configuredEndpoint(envSuffix: envSuffix, service: service, sources: sources, profile: profile)
        }
        let variants = EndpointVariants(sources: sources, profile: profile)
        let partition = Partition.of(region: region)
        let domain = partition.suffix(dualStack: variants.dualStack)
        let fips = variants.fips ? "-fips" : ""
        let regionalFIPS = variants.fips && !(partition.name == "aws-us-gov" && !variants.dualStack) ? "-fips" : ""
        let configuredEndpoint = codeEndpoint ?? configured(envSuffix: "DYNAMODB", service: "dynamodb")
        endpoint = try Self.validated(configuredEndpoint ?? "https://dynamodb\(regionalFIPS).\(region).\(domain)")
        searchEndpoint = try Self.validated(configuredEndpoint ?? "https://search-dynamodb\(regionalFIPS).\(region).\(domain)")
        streamsEndpoint = try Self.validated(
            codeStreamsEndpoint ?? codeEndpoint
                ?? configured(envSuffix: "DYNAMODB_STREAMS", service: "dynamodb_streams")
                ?? "https://streams.dynamodb\(fips).\(region).\(domain)")
        accountEndpoint =
            try configuredEndpoint == nil
            ? AccountEndpoint(mode: variants.accountIDMode, region: region, variants: variants) : nil
    }

    /// The dual-stack domain of a region's endpoints (`api.aws`; China's
    /// `api.amazonwebservices.com.cn`, its partition's).
    static func dualStackDomain(region: String) -> String {
        Partition.of(region: region).dualStackDnsSuffix
    }

    /// The endpoint the environment or the profile configures for a service, in the AWS SDKs'
    /// order: `AWS_ENDPOINT_URL_<envSuffix>`, `AWS_ENDPOINT_URL`, the profile's `[services]`
    /// section for `service`, the profile's `endpoint_url`; `nil` when none does or when
    /// `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` / `ignore_configured_endpoint_urls` is `true`.
    static func configuredEndpoint(
        envSuffix: String, service: String, sources: ConfigurationSources,
        profile: SharedConfiguration
    ) -> String? {
        let ignoreConfigured =
            sources.flag("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
            || profile["ignore_configured_endpoint_urls"]?.lowercased() == "true"
        guard !ignoreConfigured else { return nil }
        return sources.value("AWS_ENDPOINT_URL_\(envSuffix)") ?? sources.value("AWS_ENDPOINT_URL")
            ?? profile.serviceProperty(service: service, "endpoint_url") ?? profile["endpoint_url"]
    }

    /// The AWS domain of a region's endpoints (`amazonaws.com.cn` in China, its partition's).
    static func domain(region: String) -> String {
        Partition.of(region: region).dnsSuffix
    }

    /// The region from code, `AWS_REGION`, `AWS_DEFAULT_REGION` or the profile's `region`.
    static func region(code: String?, sources: ConfigurationSources, profile: SharedConfiguration) -> String? {
        code ?? sources.value("AWS_REGION") ?? sources.value("AWS_DEFAULT_REGION") ?? profile["region"]
    }

    /// Whether a region is a DNS label (letters, digits, inner hyphens), as botocore requires;
    /// it becomes part of the endpoint host and of the signature's credential scope.
    static func isValidRegion(_ region: String) -> Bool {
        let bytes = Array(region.utf8)
        guard (1...63).contains(bytes.count), bytes.first != 0x2D, bytes.last != 0x2D else { return false }
        return bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
    }

    /// Checks the URL has an `http`/`https` scheme and a host, and ends the path with `/`.
    static func validated(_ url: String) throws(DynamoClientError) -> String {
        guard let parts = URLParts(url), parts.scheme == "http" || parts.scheme == "https", parts.query == nil else {
            throw .invalidEndpoint(url)
        }
        return url.hasSuffix("/") ? url : url + "/"
    }
}
