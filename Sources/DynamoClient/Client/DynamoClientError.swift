/// A failure of the client itself rather than one DynamoDB reported.
///
/// DynamoDB's own errors arrive as `DynamoError` (with the exact `__type` code and message);
/// transport failures as ``TransportError``; credential failures as ``CredentialError``.
public enum DynamoClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No region in code, `AWS_REGION`, `AWS_DEFAULT_REGION` or the profile.
    case missingRegion
    /// A region that is not a DNS label (letters, digits and inner hyphens), such as one with
    /// a line break: it would go into the endpoint host and the `Authorization` header.
    case invalidRegion(String)
    /// An endpoint that is not an absolute `http`/`https` URL without a query.
    case invalidEndpoint(String)
    /// No credential provider of the chain found credentials.
    case missingCredentials(String)
    /// The body did not match the response's `x-amz-crc32` header (retried like botocore).
    case checksumMismatch(expected: String, actual: UInt32)
    /// A response that is neither success nor a DynamoDB error body (a proxy's HTML page, ...),
    /// with its `x-amzn-RequestId` when it had one.
    case unexpectedResponse(status: Int, requestID: String?, body: String)
    /// A successful response whose body could not be decoded.
    case undecodableResponse(String)
    /// A waiter gave up after its attempts.
    case waiterTimedOut(String)
    /// A waiter saw a state the resource never leaves for the wanted one (an export or import
    /// FAILED, a replica CREATION_FAILED, a backup DELETED).
    case waiterFailed(String)
    /// A batch helper still had unprocessed requests after its attempts.
    case unprocessedAfterRetries(String)
    /// Settings that cannot work together or with the credentials (an account-based endpoint
    /// `required` with FIPS, or with credentials that carry no account id).
    case invalidConfiguration(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .missingRegion:
            "no region: set it in code, AWS_REGION, AWS_DEFAULT_REGION or the profile's region "
                + "(DynamoClient(resolving:) also asks the instance metadata service)"
        case .invalidRegion(let region): "invalid region \(region.debugDescription): expected letters, digits and hyphens"
        case .invalidEndpoint(let url): "invalid endpoint URL: \(url)"
        case .missingCredentials(let detail): "no credentials found (\(detail))"
        case .checksumMismatch(let expected, let actual):
            "response body CRC32 \(actual) does not match x-amz-crc32 \(expected)"
        case .unexpectedResponse(let status, let requestID, let body):
            "unexpected HTTP \(status) response\(requestID.map { " (RequestID: \($0))" } ?? ""): \(body)"
        case .undecodableResponse(let detail): "could not decode the response: \(detail)"
        case .waiterTimedOut(let detail): "waiter timed out: \(detail)"
        case .waiterFailed(let detail): "waiter failed: \(detail)"
        case .unprocessedAfterRetries(let detail): "batch requests left unprocessed: \(detail)"
        case .invalidConfiguration(let detail): "invalid configuration: \(detail)"
        }
    }
}
