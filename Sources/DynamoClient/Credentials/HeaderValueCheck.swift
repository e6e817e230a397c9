extension CredentialError {
    /// Returns `value` when it can go into an HTTP header field; a value with CR, LF or NUL
    /// (which would end the field and send the rest as header lines of its own) is refused.
    ///
    /// - Parameters:
    ///   - value: The value from the environment, a file or an endpoint.
    ///   - what: Names the value in the error (`AWS_CONTAINER_AUTHORIZATION_TOKEN`, ...).
    /// - Throws: ``CredentialError`` naming `what`.
    static func headerSafe(_ value: String, _ what: String) throws(CredentialError) -> String {
        guard value.isSafeHeaderText else {
            throw CredentialError("\(what) contains a line break (CR or LF) or NUL and cannot be sent in a header; refused")
        }
        return value
    }
}

extension AWSCredentials {
    /// The credentials when the parts that are sent in headers (the access key id in
    /// `Authorization`, the session token in `X-Amz-Security-Token`) are safe there.
    ///
    /// - Parameter source: Names where the credentials came from in the error.
    /// - Throws: ``CredentialError`` naming the source and the part.
    func headerSafe(source: String) throws(CredentialError) -> AWSCredentials {
        _ = try CredentialError.headerSafe(accessKeyID, "the access key id from \(source)")
        if let sessionToken { _ = try CredentialError.headerSafe(sessionToken, "the session token from \(source)") }
        return self
    }
}
