/// The name of a DynamoDB error, as it appears after the `#` of the wire `__type`.
///
/// Known codes are static members; any other name (for example one a newer service version
/// introduced) is kept as it was received.
public struct DynamoErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// The namespace DynamoDB puts before `#` in `__type` for this code.
    public var namespace: String {
        switch self {
        case .validation: "com.amazon.coral.validate"
        case .serialization, .unknownOperation, .missingAuthenticationToken, .incompleteSignature,
            .invalidSignature, .unrecognizedClient, .accessDenied, .requestEntityTooLarge:
            "com.amazon.coral.service"
        default: "com.amazonaws.dynamodb.v20120810"
        }
    }

    /// The full `__type` DynamoDB writes in an error body.
    public var wireType: String { "\(namespace)#\(rawValue)" }

    /// The HTTP status DynamoDB answers this error with.
    public var httpStatus: Int {
        switch self {
        case .internalServerError: 500
        case .serviceUnavailable: 503
        case .requestEntityTooLarge: 413
        default: 400
        }
    }

    /// Whether an AWS SDK's standard retry mode retries this error.
    public var isRetryable: Bool {
        switch self {
        case .provisionedThroughputExceeded, .throttling, .requestLimitExceeded,
            .transactionInProgress, .internalServerError, .serviceUnavailable, .limitExceeded:
            true
        default: false
        }
    }

    /// Parses a wire `__type` (with or without its namespace).
    public init(wireType: String) {
        if let hash = wireType.lastIndex(of: "#") {
            self.init(rawValue: String(wireType[wireType.index(after: hash)...]))
        } else {
            self.init(rawValue: wireType)
        }
    }
}

extension DynamoErrorCode {
    public static let validation = Self(rawValue: "ValidationException")
    public static let serialization = Self(rawValue: "SerializationException")
    public static let unknownOperation = Self(rawValue: "UnknownOperationException")
    public static let missingAuthenticationToken = Self(rawValue: "MissingAuthenticationTokenException")
    public static let incompleteSignature = Self(rawValue: "IncompleteSignatureException")
    public static let invalidSignature = Self(rawValue: "InvalidSignatureException")
    public static let unrecognizedClient = Self(rawValue: "UnrecognizedClientException")
    public static let accessDenied = Self(rawValue: "AccessDeniedException")
    public static let requestEntityTooLarge = Self(rawValue: "RequestEntityTooLarge")
    public static let resourceNotFound = Self(rawValue: "ResourceNotFoundException")
    public static let resourceInUse = Self(rawValue: "ResourceInUseException")
    public static let conditionalCheckFailed = Self(rawValue: "ConditionalCheckFailedException")
    public static let limitExceeded = Self(rawValue: "LimitExceededException")
    public static let provisionedThroughputExceeded = Self(rawValue: "ProvisionedThroughputExceededException")
    public static let throttling = Self(rawValue: "ThrottlingException")
    public static let requestLimitExceeded = Self(rawValue: "RequestLimitExceeded")
    public static let itemCollectionSizeLimitExceeded = Self(rawValue: "ItemCollectionSizeLimitExceededException")
    public static let transactionCanceled = Self(rawValue: "TransactionCanceledException")
    public static let transactionConflict = Self(rawValue: "TransactionConflictException")
    public static let transactionInProgress = Self(rawValue: "TransactionInProgressException")
    public static let idempotentParameterMismatch = Self(rawValue: "IdempotentParameterMismatchException")
    public static let internalServerError = Self(rawValue: "InternalServerError")
    public static let serviceUnavailable = Self(rawValue: "ServiceUnavailable")
}
