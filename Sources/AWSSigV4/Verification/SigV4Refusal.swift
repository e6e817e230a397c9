/// Why a request's signature was refused: the error DynamoDB answers with and its wording.
///
/// Every refusal is an HTTP 400 in DynamoDB. The wordings follow the service's answers as
/// dynalite recorded them (and current reports of the service for `Signature expired`).
public struct SigV4Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's name (`__type` after the `#`).
    public enum Kind: String, Sendable, Hashable {
        /// No `Authorization` header (or one that does not start with `AWS4-`) and no
        /// presigned query.
        case missingAuthenticationToken = "MissingAuthenticationTokenException"
        /// A parameter or the request date is missing or malformed.
        case incompleteSignature = "IncompleteSignatureException"
        /// The scope, the time or the signature itself is wrong.
        case invalidSignature = "InvalidSignatureException"
        /// The access key id is unknown, or the session token does not match.
        case unrecognizedClient = "UnrecognizedClientException"
    }

    /// The error.
    public var kind: Kind
    /// DynamoDB's message.
    public var message: String

    /// Creates a refusal.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `Kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }

    /// "Request is missing Authentication Token".
    package static let missingToken = SigV4Refusal(.missingAuthenticationToken, "Request is missing Authentication Token")

    /// The answer to a well-formed request signed with a wrong secret, or tampered with.
    package static let signatureMismatch = SigV4Refusal(
        .invalidSignature,
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret "
            + "Access Key and signing method. Consult the service documentation for details.")

    /// An access key id no identity has.
    package static let unknownAccessKey = SigV4Refusal(
        .unrecognizedClient,
        "The security token included in the request is invalid.")

    /// A session token that is not the identity's (DynamoDB leaves the period out here).
    package static let wrongSessionToken = SigV4Refusal(
        .unrecognizedClient,
        "The security token included in the request is invalid")

    /// The `IncompleteSignatureException` message for an `Authorization` header that lacks
    /// parameters or a request date, or `nil` when nothing is missing.
    package static func incompleteHeaderMessage(
        hasCredential: Bool, hasSignature: Bool, hasSignedHeaders: Bool,
        hasDate: Bool, authorization: String
    ) -> String? {
        if hasCredential, hasSignature, hasSignedHeaders, hasDate { return nil }
        var message = ""
        if !hasCredential { message += "Authorization header requires 'Credential' parameter. " }
        if !hasSignature { message += "Authorization header requires 'Signature' parameter. " }
        if !hasSignedHeaders { message += "Authorization header requires 'SignedHeaders' parameter. " }
        if !hasDate {
            message += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
        }
        return message + "Authorization=" + authorization
    }
}
