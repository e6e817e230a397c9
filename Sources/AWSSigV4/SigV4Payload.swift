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
        let time = AmzDate(date)
        var signed = request
        signed.headers.removeAll {
            let name = $0.name.lowercased()
            return name == "authorization" || name == "x-amz-date" || name == "x-amz-security-token"
        }
        let parts = URLParts(request.url)
        if signed.headerValue("host") == nil, let parts { signed.headers.insert(("Host", parts.hostHeader), at: 0) }
        if signed.headerValue("x-amz-content-sha256") == nil {
            signed.headers.append(("x-amz-content-sha256", SigV4Payload.hash(request.body)))
        }
        signed.headers.append(("X-Amz-Date", time.timestamp))
        if let token = credentials.sessionToken { signed.headers.append(("X-Amz-Security-Token", token)) }
        // The canonical-request builder encodes the path it is given: hand it the decoded key
        // path, so the canonical URI is the key encoded exactly once.
        let canonical = Self.canonicalRequest(
            method: signed.method, path: SigV4Encoding.decode(parts?.path ?? "/"), query: parts?.query,
            headers: signed.headers, defaultHost: parts?.hostHeader,
            payloadHash: signed.headerValue("x-amz-content-sha256")!, signing: nil)
        let signature = self.signature(stringToSign: stringToSign(canonicalRequest: canonical.text, time: time),
                                       secretAccessKey: credentials.secretAccessKey, day: time.day)
        signed.headers.append(("Authorization",
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(credentialScope(day: time.day)), "
            + "SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"))
        return signed
    }
}
