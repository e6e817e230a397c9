import Foundation

/// AWS credentials: an access key pair, an optional session token and, for temporary
/// credentials, when they expire.
///
/// `description` never shows the secret or the token.
///
/// ```swift
/// let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
/// ```
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The access key id (`AKIA…` or `ASIA…`).
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The session token of temporary credentials.
    public var sessionToken: String?
    /// When temporary credentials stop working; `nil` for long-term keys.
    public var expiration: Date?

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - secretAccessKey: The secret access key.
    ///   - sessionToken: The session token, for temporary credentials.
    ///   - expiration: When temporary credentials expire.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Date? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    /// The access key id only; secrets are never printed.
    public var description: String {
        "AWSCredentials(accessKeyID: \(accessKeyID)\(sessionToken == nil ? "" : ", session")"
            + "\(expiration.map { ", expires: \($0)" } ?? ""))"
    }
}
