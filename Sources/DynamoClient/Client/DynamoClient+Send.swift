import DynamoAPI
import Foundation
import Logging

extension DynamoClient {
    /// Sends any DynamoDB or DynamoDB Streams operation.
    ///
    /// The input's JSON goes to the operation's endpoint with its `X-Amz-Target`, signed with
    /// SigV4; retryable failures are retried in the standard mode; the output is decoded from
    /// the response. Every per-operation method calls this.
    ///
    /// An input with an idempotency token member (``IdempotentOperationInput``: the
    /// `ClientRequestToken` of `TransactWriteItems` and `ExecuteTransaction`, the `ClientToken`
    /// of `ExportTableToPointInTime` and `ImportTable`) that the caller left `nil` gets a new
    /// UUID, once per call: every retry sends the same token, so DynamoDB applies the request
    /// once even when a response was lost. A token set by the caller is sent as it is.
    ///
    /// ```swift
    /// let output = try await client.send(DescribeTableInput(tableName: "Notes"))
    /// ```
    ///
    /// - Parameter input: The operation's input shape.
    /// - Returns: The operation's output shape.
    /// - Throws: `DynamoError` for an error DynamoDB returned (exact code and message),
    ///   ``TransportError`` when no response arrived, ``DynamoClientError`` for checksum and
    ///   decoding failures, ``CredentialError`` when credentials could not be obtained,
    ///   `CancellationError` when the task was cancelled.
    public func send<Input: DynamoOperationInput>(_ input: Input) async throws -> Input.Output {
        try await send(input, target: Input.target, output: Input.Output.self)
    }

    /// Sends a shape to an explicit `X-Amz-Target`, for inputs that serve several operations
    /// (`KinesisStreamingDestinationInput`) or targets newer than the generated shapes.
    ///
    /// - Parameters:
    ///   - input: The request shape.
    ///   - target: The full target, e.g. `DynamoDB_20120810.EnableKinesisStreamingDestination`;
    ///     a `DynamoDBStreams_20120810.` target goes to the Streams endpoint.
    ///   - output: The response shape to decode.
    /// - Returns: The decoded response.
    /// - Throws: As ``send(_:)``.
    public func send<Input: DynamoShape, Output: DynamoShape>(
        _ input: Input, target: String, output: Output.Type
    ) async throws -> Output {
        // The body is built once per call, so every attempt carries the same idempotency token.
        try await send(
            body: Self.withIdempotencyToken(input).jsonBytes, target: target, output: output,
            endpointParameters: EndpointParameters(of: input, readsResources: accountEndpoint != nil))
    }

    /// Sends a request body already encoded as JSON (for a caller that encoded its parts
    /// anyway, as DynamoStore does to size its transactions); otherwise as
    /// ``send(_:target:output:)``. The body must carry its own idempotency token, if any.
    ///
    /// The endpoint rules see no table ARN in such a body (`endpointParameters`, none by default):
    /// with account-based endpoints it goes by the credentials' account.
    package func send<Output: DynamoShape>(
        body: [UInt8], target: String, output: Output.Type, endpointParameters: EndpointParameters = .none
    ) async throws -> Output {
        let isStreams = target.hasPrefix(DynamoStreamsOperation.targetPrefix + ".")
        let endpoint = isStreams ? streamsEndpoint : endpointParameters.isSearchOperation ? searchEndpoint : endpoint
        let start = ContinuousClock.now
        var attempts = 0
        var json: JSONValue?
        do {
            let response = try await perform(
                target: target, body: body, endpoint: endpoint, endpointParameters: endpointParameters, attempts: &attempts)
            let output = try AnswerDecoder.decode(Output.self, from: response.body, json: &json)
            report(target: target, attempts: attempts, duration: ContinuousClock.now - start, response: json, failure: nil)
            return output
        } catch {
            report(target: target, attempts: attempts, duration: ContinuousClock.now - start, response: json, failure: error)
            throw error
        }
    }

    /// Runs the attempts of one call: sign, send, verify the CRC, classify, back off, repeat.
    ///
    /// - Parameter attempts: Set to the number of attempts sent so far (for observation).
    /// - Returns: The successful (2xx) response.
    func perform(
        target: String, body: [UInt8], endpoint: String, endpointParameters: EndpointParameters = .none, attempts: inout Int
    ) async throws -> HTTPResponse {
        let signer = SigV4Signer(service: "dynamodb", region: region)
        let unsigned = HTTPRequest(
            method: "POST", url: endpoint,
            headers: [
                ("Content-Type", "application/x-amz-json-1.0"),
                ("X-Amz-Target", target),
                ("User-Agent", DynamoClient.userAgent),
            ], body: body)
        var attempt = 1
        var retryCostPaid: Int?
        var resentForClockSkew = false
        while true {
            try Task.checkCancellation()
            let failure: any Error
            var failureStatus: Int?
            var failureRequestID: String?
            // Outside the `do`: a credential failure is reported as such, never retried as if
            // DynamoDB had failed.
            let credentials = try await resolvedCredentials()
            attempts = attempt
            let attemptRequest = try routed(unsigned, credentials: credentials, parameters: endpointParameters)
            try await waitForRateLimiter()
            do {
                let request = signer.sign(
                    attemptRequest, credentials: credentials, date: clock().addingTimeInterval(clockSkew.seconds),
                    keys: signingKeys, urlParts: urlParts(of: attemptRequest.url))
                let response = try await transport.send(request, timeouts: timeouts)
                logger.debug(
                    "DynamoClient attempt",
                    metadata: [
                        "target": .string(target), "attempt": .stringConvertible(attempt),
                        "status": .stringConvertible(response.status),
                        "requestId": .string(response.header("x-amzn-requestid") ?? "-"),
                    ])
                if let mismatch = Self.checksumFailure(response) {
                    failure = mismatch
                } else if (200..<300).contains(response.status) {
                    rateLimiter?.record(throttled: false)
                    retryTokens.release(retryCostPaid ?? retry.noRetryIncrement)
                    return response
                } else {
                    failure = Self.decodeError(response)
                    failureStatus = response.status
                    if !resentForClockSkew, let error = failure as? DynamoError,
                        clockSkew.learn(code: error.code.rawValue, response: response, localTime: clock())
                    {
                        resentForClockSkew = true
                        continue
                    }
                }
                failureRequestID = response.header("x-amzn-requestid")
            } catch let error as TransportError {
                logger.debug(
                    "DynamoClient attempt failed",
                    metadata: [
                        "target": .string(target), "attempt": .stringConvertible(attempt), "error": .string("\(error)"),
                    ])
                failure = error
            }
            rateLimiter?.record(throttled: Self.isThrottling(failure))
            let classification = Self.classify(failure, status: failureStatus)
            guard classification != .fatal, attempt < retry.maximumAttempts else { throw failure }
            let cost = classification == .timeout ? retry.timeoutRetryCost : retry.retryCost
            guard retryTokens.acquire(cost) else { throw failure }
            retryCostPaid = cost
            let delay = retry.backoff(attempt: attempt)
            logger.debug(
                "DynamoClient retrying",
                metadata: [
                    "target": .string(target), "attempt": .stringConvertible(attempt),
                    "errorCode": .string(Self.errorCode(failure)), "requestId": .string(failureRequestID ?? "-"),
                    "delay": .stringConvertible(delay),
                ])
            try await retry.sleep(delay)
            attempt += 1
        }
    }

    /// The client's parsed endpoint when `url` is one of its two endpoints (an account-based
    /// endpoint is parsed when signing).
    private func urlParts(of url: String) -> URLParts? {
        if url == endpoint { return endpointParts }
        if url == searchEndpoint { return searchEndpointParts }
        if url == streamsEndpoint { return streamsEndpointParts }
        return nil
    }

    /// A short name for a failed attempt's error in logs: DynamoDB's code, the transport
    /// failure's kind, or the client error's case.
    static func errorCode(_ failure: any Error) -> String {
        switch failure {
        case let error as DynamoError: error.code.rawValue
        case let error as TransportError: "TransportError.\(error.kind)"
        case DynamoClientError.checksumMismatch: "ChecksumMismatch"
        case DynamoClientError.unexpectedResponse(let status, _, _): "UnexpectedResponse(\(status))"
        default: "\(type(of: failure))"
        }
    }

    private func resolvedCredentials() async throws -> AWSCredentials {
        guard let credentials = try await credentialProvider.resolveCredentials() else {
            throw DynamoClientError.missingCredentials(
                "tried code, environment, shared profile, container endpoint and instance metadata")
        }
        return credentials
    }

    /// Classifies a failed attempt; `status` is the HTTP status of an error response.
    static func classify(_ failure: any Error, status: Int?) -> RetryClassification {
        if let error = failure as? DynamoError {
            return RetryClassification.classify(code: error.code.rawValue, status: status ?? error.code.httpStatus)
        }
        return RetryClassification.classify(failure)
    }

    /// A ``DynamoClientError/checksumMismatch(expected:actual:)`` when the body does not match
    /// `x-amz-crc32`, else `nil`.
    static func checksumFailure(_ response: HTTPResponse) -> DynamoClientError? {
        guard !ResponseChecksum.verify(response) else { return nil }
        return .checksumMismatch(
            expected: response.header("x-amz-crc32") ?? "",
            actual: ResponseChecksum.crc32(response.body))
    }

    /// Decodes an error response into `DynamoError` (code from `__type` or the
    /// `x-amzn-ErrorType` header, `message` or `Message`, the `Item` of a failed condition, the
    /// `CancellationReasons` of a cancelled transaction, the `ThrottlingReasons` of a throttling
    /// error) carrying the response's request id and status. A body that is not such an error
    /// becomes ``DynamoClientError/unexpectedResponse(status:requestID:body:)``.
    static func decodeError(_ response: HTTPResponse) -> any Error {
        let members = (try? JSONValue(parsing: response.body))?.objectValue ?? [:]
        let headerType = response.header("x-amzn-errortype").map { String($0.prefix { $0 != ":" }) }
        let requestID = response.header("x-amzn-requestid")
        guard let type = members["__type"]?.stringValue ?? headerType, !type.isEmpty else {
            return DynamoClientError.unexpectedResponse(
                status: response.status, requestID: requestID,
                body: String(decoding: response.body.prefix(500), as: UTF8.self))
        }
        let message = members["message"]?.stringValue ?? members["Message"]?.stringValue
        let item = members["Item"].flatMap { try? AttributeValue.decodeItem($0) }
        return DynamoError(
            DynamoErrorCode(wireType: type), message, item: item,
            cancellationReasons: decodeList(members["CancellationReasons"]),
            throttlingReasons: decodeList(members["ThrottlingReasons"] ?? members["throttlingReasons"]),
            response: ResponseMetadata(requestID: requestID, httpStatus: response.status))
    }

    /// The decodable elements of a JSON array of shapes; `nil` when the member is absent.
    private static func decodeList<Shape: DynamoShape>(_ json: JSONValue?) -> [Shape]? {
        guard case .array(let elements)? = json else { return nil }
        return elements.compactMap { try? Shape(json: $0) }
    }
}
