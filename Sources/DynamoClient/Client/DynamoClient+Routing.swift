import DynamoAPI

extension DynamoClient {
    /// The request sent to the account-based endpoint when ``accountEndpoint`` applies to it
    /// (a DynamoDB request to the default endpoint) and the request's table ARN or the
    /// credentials give an account id.
    ///
    /// - Throws: ``DynamoClientError/invalidConfiguration(_:)`` when account-based endpoints
    ///   are required and the request offers no usable account id.
    func routed(_ request: HTTPRequest, credentials: AWSCredentials, parameters: EndpointParameters) throws(DynamoClientError)
        -> HTTPRequest
    {
        guard request.url == endpoint || request.url == searchEndpoint, let accountEndpoint,
            let url = try accountEndpoint.url(accountID: credentials.accountID, parameters: parameters)
        else { return request }
        var routed = request
        routed.url = url
        return routed
    }

    /// In the adaptive retry mode, waits for the client-side rate limiter's token.
    func waitForRateLimiter() async throws {
        guard let rateLimiter else { return }
        let wait = rateLimiter.reserve()
        if wait > .zero { try await retry.sleep(wait) }
    }

    /// Whether a failed attempt was throttled (the adaptive mode slows down for these).
    static func isThrottling(_ failure: any Error) -> Bool {
        guard let error = failure as? DynamoError else { return false }
        return RetryClassification.throttlingCodes.contains(error.code.rawValue)
    }
}
