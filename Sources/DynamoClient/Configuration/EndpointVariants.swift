/// The endpoint variants the AWS SDKs let configuration choose: FIPS, dual-stack (IPv6) and
/// DynamoDB's account-based endpoints. Environment variables win over profile keys.
struct EndpointVariants: Sendable, Hashable {
    /// `AWS_USE_FIPS_ENDPOINT` / `use_fips_endpoint`.
    var fips: Bool
    /// `AWS_USE_DUALSTACK_ENDPOINT` / `use_dualstack_endpoint`.
    var dualStack: Bool
    /// `AWS_ACCOUNT_ID_ENDPOINT_MODE` / `account_id_endpoint_mode` (default `preferred`).
    var accountIDMode: AccountIDEndpointMode

    /// Reads the variants.
    init(sources: ConfigurationSources, profile: SharedConfiguration) {
        func flag(_ environment: String, _ key: String) -> Bool {
            (sources.value(environment) ?? profile[key])?.lowercased() == "true"
        }
        fips = flag("AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint")
        dualStack = flag("AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint")
        let mode = sources.value("AWS_ACCOUNT_ID_ENDPOINT_MODE") ?? profile["account_id_endpoint_mode"]
        accountIDMode = mode.flatMap { AccountIDEndpointMode(rawValue: $0.lowercased()) } ?? .preferred
    }

    init(fips: Bool = false, dualStack: Bool = false, accountIDMode: AccountIDEndpointMode = .preferred) {
        self.fips = fips
        self.dualStack = dualStack
        self.accountIDMode = accountIDMode
    }
}

/// Whether DynamoDB requests go to `https://<account-id>.ddb.<region>.amazonaws.com`, the
/// endpoint that routes by the account the credentials belong to.
public enum AccountIDEndpointMode: String, Sendable, CaseIterable {
    /// Use the account-based endpoint when the credentials carry an account id (the default).
    case preferred
    /// Never use it.
    case disabled
    /// Always use it; a request whose credentials carry no account id fails.
    case required
}
