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
    /// The AWS account the credentials belong to, when their source says (`AWS_ACCOUNT_ID`, a
    /// profile's `aws_account_id`, STS and IAM Identity Center answers); DynamoDB's
    /// account-based endpoints use it.
    public var accountID: String?

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - secretAccessKey: The secret access key.
    ///   - sessionToken: The session token, for temporary credentials.
    ///   - expiration: When temporary credentials expire.
    ///   - accountID: The account the credentials belong to, when known.
    public init(
        accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Date? = nil,
        accountID: String? = nil
    ) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
        self.accountID = accountID
    }

    /// The access key id only; secrets are never printed.
    public var description: String {
        "AWSCredentials(accessKeyID: \(accessKeyID)\(sessionToken == nil ? "" : ", session")"
            + "\(expiration.map { ", expires: \($0)" } ?? ""))"
    }
}
