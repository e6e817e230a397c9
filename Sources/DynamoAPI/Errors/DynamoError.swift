/// An error as DynamoDB reports it: a code, a message, and the extra members some errors carry.
///
/// The server renders it into a response body; the client decodes it from one. The same value
/// travels both ways, so client and server cannot disagree on what an error looks like.
public struct DynamoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which error this is.
    public var code: DynamoErrorCode
    /// The human-readable message, absent for a few wire-level errors that DynamoDB sends bare.
    /// For a message DynamoDB's 2026 validation rollout changed, this is its 2026 form (the
    /// default wording); ``message2025`` holds the other.
    public var message: String?
    /// The message in the 2025 wording when DynamoDB's 2026 rollout changed it; `nil` when both
    /// wordings agree. The server answers with it under `--error-wording 2025` (see
    /// ``worded(_:)``); equality and hashing ignore it (two errors are equal when they answer
    /// alike in the default wording).
    package var message2025: String?
    /// For `ConditionalCheckFailedException` with `ReturnValuesOnConditionCheckFailure=ALL_OLD`.
    public var item: [String: AttributeValue]?
    /// For `TransactionCanceledException`: one reason per action, in action order.
    public var cancellationReasons: [CancellationReason]?
    /// For the throttling errors (`ProvisionedThroughputExceededException`,
    /// `RequestLimitExceeded`, `ThrottlingException`): what was throttled and why.
    public var throttlingReasons: [ThrottlingReason]?
    /// The HTTP response a client decoded this error from; `nil` for an error raised locally.
    public var response: ResponseMetadata?

    public init(
        _ code: DynamoErrorCode, _ message: String? = nil, item: [String: AttributeValue]? = nil,
        cancellationReasons: [CancellationReason]? = nil, throttlingReasons: [ThrottlingReason]? = nil,
        response: ResponseMetadata? = nil
    ) {
        self.code = code
        self.message = message
        self.item = item
        self.cancellationReasons = cancellationReasons
        self.throttlingReasons = throttlingReasons
        self.response = response
    }

    /// `Code: message`; for an error decoded from a response, prefixed with its status and
    /// request id as the AWS SDK for Go prints them:
    /// `https response error StatusCode: 400, RequestID: 4KBN…, ConditionalCheckFailedException: …`.
    public var description: String {
        let error = message.map { "\(code.rawValue): \($0)" } ?? code.rawValue
        guard let response else { return error }
        return "https response error StatusCode: \(response.httpStatus), RequestID: \(response.requestID ?? ""), \(error)"
    }

    /// A `ValidationException` with the given message.
    public static func validation(_ message: String) -> DynamoError {
        DynamoError(.validation, message)
    }

    /// A `ValidationException` whose message DynamoDB's 2026 rollout changed: `message` in the
    /// 2026 wording, `v2025` in the 2025 wording (equal strings make a one-form error).
    package static func validation(_ message: String, v2025: String) -> DynamoError {
        var error = DynamoError(.validation, message)
        if v2025 != message { error.message2025 = v2025 }
        return error
    }

    /// This error as it reads in `wording`: the 2025 form of its message where it has one, else
    /// unchanged.
    package func worded(_ wording: ErrorWording) -> DynamoError {
        guard wording == .v2025 else { return self }
        var worded = self
        if let message2025 { worded.message = message2025 }
        worded.message2025 = nil
        return worded
    }

    public static func == (lhs: DynamoError, rhs: DynamoError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.item == rhs.item
            && lhs.cancellationReasons == rhs.cancellationReasons && lhs.throttlingReasons == rhs.throttlingReasons
            && lhs.response == rhs.response
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(item)
        hasher.combine(cancellationReasons)
        hasher.combine(throttlingReasons)
        hasher.combine(response)
    }

    /// A `SerializationException` with the given message.
    public static func serialization(_ message: String?) -> DynamoError {
        DynamoError(.serialization, message)
    }

    /// `ResourceNotFoundException` for a table that does not exist, in DynamoDB's wording.
    public static func tableNotFound() -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found")
    }

    /// Writes the error body DynamoDB sends: `{"__type":"…","message":"…"}`.
    ///
    /// DynamoDB capitalizes `Message` for the errors raised by its request deserializer
    /// (`SerializationException`); botocore accepts either spelling.
    public func encode(to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("__type", first: true)
        writer.write(string: code.wireType)
        if let message {
            writer.writeKey(code == .serialization ? "Message" : "message", first: false)
            writer.write(string: message)
        }
        if let item {
            writer.writeKey("Item", first: false)
            AttributeValue.encode(item: item, to: &writer)
        }
        if let cancellationReasons {
            writer.writeKey("CancellationReasons", first: false)
            writer.writeRaw(UInt8(ascii: "["))
            for (position, reason) in cancellationReasons.enumerated() {
                if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                reason.encode(to: &writer)
            }
            writer.writeRaw(UInt8(ascii: "]"))
        }
        if let throttlingReasons {
            // The model spells the member `throttlingReasons` on ThrottlingException only.
            writer.writeKey(code == .throttling ? "throttlingReasons" : "ThrottlingReasons", first: false)
            writer.writeRaw(UInt8(ascii: "["))
            for (position, reason) in throttlingReasons.enumerated() {
                if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                reason.encode(to: &writer)
            }
            writer.writeRaw(UInt8(ascii: "]"))
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// The error body as bytes.
    public var body: [UInt8] {
        var writer = JSONWriter()
        encode(to: &writer)
        return writer.bytes
    }
}

/// What a client keeps of the HTTP response an error came from.
public struct ResponseMetadata: Sendable, Hashable {
    /// The `x-amzn-RequestId` header: what AWS support asks for.
    public var requestID: String?
    /// The HTTP status code.
    public var httpStatus: Int

    /// Creates response metadata.
    public init(requestID: String?, httpStatus: Int) {
        self.requestID = requestID
        self.httpStatus = httpStatus
    }
}
