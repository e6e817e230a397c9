/// DynamoDB's account-based endpoints, `https://<account-id>.ddb.<region>.<suffix>` (and
/// `<account-id>.search-ddb.` for vector searches), chosen per request as DynamoDB's endpoint
/// rules (botocore 1.44.8) choose them: the account of the table ARN the request names first,
/// else the account id the credentials carry.
///
/// - `preferred` (the default): used when the request names a table by an ARN of this region,
///   or the credentials carry a valid account id; else the regional endpoint.
/// - `required`: a request that offers neither fails.
/// - `disabled`: never used.
///
/// The `aws` partition has them, and GovCloud's and China's named regions, dual-stack too, but
/// not with FIPS: `preferred` then keeps the regional endpoint and `required` is a
/// configuration error.
struct AccountEndpoint: Sendable, Hashable {
    var mode: AccountIDEndpointMode
    var region: String
    /// The host suffix (dual-stack or not).
    var suffix: String

    /// The regions outside the `aws` partition that have account-based endpoints.
    private static let otherRegions: Set<String> = ["us-gov-east-1", "us-gov-west-1", "cn-north-1", "cn-northwest-1"]

    /// `nil` when disabled or unavailable (and not required).
    ///
    /// - Throws: ``DynamoClientError/invalidConfiguration(_:)`` when `required` cannot be met.
    init?(mode: AccountIDEndpointMode, region: String, variants: EndpointVariants) throws(DynamoClientError) {
        guard mode != .disabled else { return nil }
        let partition = Partition.of(region: region)
        let unavailable: String? =
            if variants.fips {
                "Invalid Configuration: AccountIdEndpointMode is required and FIPS is enabled, but FIPS account endpoints are not supported"
            } else if partition.name != "aws" && !Self.otherRegions.contains(region) {
                "Invalid Configuration: AccountIdEndpointMode is required but account endpoints are not supported in this region"
            } else {
                nil
            }
        if let unavailable {
            guard mode != .required else { throw .invalidConfiguration(unavailable) }
            return nil
        }
        self.mode = mode
        self.region = region
        self.suffix = partition.suffix(dualStack: variants.dualStack)
    }

    /// The endpoint for one request; `nil` means the regional endpoint.
    ///
    /// - Parameters:
    ///   - accountID: The account id the credentials carry.
    ///   - parameters: What the endpoint rules read from the request's input.
    /// - Throws: ``DynamoClientError/invalidConfiguration(_:)`` when the mode is `required` and
    ///   the request offers no account id, or the credentials carry one that cannot be a host
    ///   name label.
    func url(accountID: String?, parameters: EndpointParameters) throws(DynamoClientError) -> String? {
        let service = parameters.isSearchOperation ? "search-ddb" : "ddb"
        // The rules look at `ResourceArn`, else at the first entry of `ResourceArnList` (only).
        if let arn = parameters.resourceArn ?? parameters.resourceArnList.first, let account = arnAccount(arn) {
            return "https://\(account).\(service).\(region).\(suffix)/"
        }
        guard let accountID else {
            guard mode != .required else {
                throw .invalidConfiguration("AccountIdEndpointMode is required but no AccountID was provided or able to be loaded")
            }
            return nil
        }
        guard ServiceLocation.isValidRegion(accountID) else {
            throw .invalidConfiguration("Credentials-sourced account ID parameter is invalid")
        }
        return "https://\(accountID).\(service).\(region).\(suffix)/"
    }

    /// The account of a DynamoDB ARN of this region whose account and region are host name
    /// labels (`aws.parseArn` with the rules' conditions); `nil` for a table name or any other
    /// ARN.
    private func arnAccount(_ text: String) -> String? {
        let parts = text.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", !parts[1].isEmpty, parts[2] == "dynamodb", !parts[5].isEmpty else { return nil }
        let arnRegion = String(parts[3])
        let account = String(parts[4])
        guard ServiceLocation.isValidRegion(arnRegion), arnRegion == region, ServiceLocation.isValidRegion(account) else { return nil }
        return account
    }
}
