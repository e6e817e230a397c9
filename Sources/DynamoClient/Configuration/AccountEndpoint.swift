/// DynamoDB's account-based endpoint, `https://<account-id>.ddb.<region>.amazonaws.com`, chosen
/// per request from the account id the credentials carry, as DynamoDB's endpoint rules say.
///
/// - `preferred` (the default): used when the credentials carry a valid account id, else the
///   regional endpoint.
/// - `required`: a request whose credentials carry none fails.
/// - `disabled`: never used.
///
/// Only the `aws` partition has such endpoints, and not with FIPS or dual-stack: `preferred`
/// then keeps the regional endpoint and `required` is a configuration error.
struct AccountEndpoint: Sendable, Hashable {
    var mode: AccountIDEndpointMode
    var region: String

    /// `nil` when disabled or unavailable (and not required).
    ///
    /// - Throws: ``DynamoClientError/invalidConfiguration(_:)`` when `required` cannot be met.
    init?(mode: AccountIDEndpointMode, region: String, variants: EndpointVariants) throws(DynamoClientError) {
        guard mode != .disabled else { return nil }
        let unavailable: String? =
            if variants.fips {
                "FIPS is enabled, but FIPS account endpoints are not supported"
            } else if variants.dualStack {
                "DualStack is enabled, but DualStack account endpoints are not supported"
            } else if region.hasPrefix("cn-") || region.hasPrefix("us-gov-") || region.hasPrefix("us-iso") {
                "account endpoints are not supported in this partition"
            } else {
                nil
            }
        if let unavailable {
            guard mode != .required else {
                throw .invalidConfiguration("AccountIdEndpointMode is required and \(unavailable)")
            }
            return nil
        }
        self.mode = mode
        self.region = region
    }

    /// The endpoint for credentials with this account id; `nil` means the regional endpoint.
    ///
    /// - Throws: ``DynamoClientError/invalidConfiguration(_:)`` when the mode is `required` and
    ///   the credentials carry no account id, or carry one that cannot be a host name label.
    func url(accountID: String?) throws(DynamoClientError) -> String? {
        guard let accountID, !accountID.isEmpty else {
            guard mode != .required else {
                throw .invalidConfiguration("AccountIdEndpointMode is required but no AccountID was provided or able to be loaded")
            }
            return nil
        }
        guard ServiceLocation.isValidRegion(accountID) else {
            throw .invalidConfiguration("Credentials-sourced account ID parameter is invalid")
        }
        return "https://\(accountID).ddb.\(region).amazonaws.com/"
    }
}
