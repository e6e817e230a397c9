import Foundation

/// The payload-hash forms of the `x-amz-content-sha256` header that S3 requires.
public enum SigV4Payload {
    /// The body is not part of the signature (S3 over TLS, or a stream whose hash is unknown).
    public static let unsigned = "UNSIGNED-PAYLOAD"

    /// The hex SHA-256 of `body`, the signed-payload form.
    public static func hash(_ body: [UInt8]) -> String {
        SHA256.hash(body).hexString
    }
}

extension SigV4Signer {
    /// Signs a request to S3, whose canonical URI is the path encoded once (the object key's
    /// bytes percent-encoded as sent), not encoded again as other services expect. The request's
    /// URL carries the encoded path; `x-amz-content-sha256` is added (the body's hash) when the
    /// request has none, since S3 refuses requests without it.
    ///
    /// Keys with empty (`//`) or dot segments are not signed as S3 expects (the path is
    /// normalized like every other service's).
    ///
    /// - Parameters:
    ///   - request: The request; its URL must be absolute, its path percent-encoded.
    ///   - credentials: The keys to sign with.
    ///   - date: The signing time.
    /// - Returns: The signed request.
    public func signS3<Request: SigV4Signable>(_ request: Request, credentials: AWSCredentials, date: Date) -> Request {
        var request = request
        if request.headerValue("x-amz-content-sha256") == nil {
            request.headers.append(("x-amz-content-sha256", SigV4Payload.hash(request.body)))
        }
        return sign(request, credentials: credentials, date: date, pathEncodedOnce: true)
    }
}
