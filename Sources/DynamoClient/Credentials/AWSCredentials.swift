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

/// Something that supplies credentials: static keys, the environment, a profile, a container
/// or instance metadata endpoint, a chain of those, or a cache around one.
public protocol CredentialProvider: Sendable {
    /// Returns credentials, or `nil` when this source is not configured (so a chain moves on).
    ///
    /// - Throws: ``CredentialError`` when the source is configured but fails (a profile that
    ///   names a missing key, an endpoint that answers with an error, ...).
    func resolveCredentials() async throws -> AWSCredentials?
}

/// Why credentials could not be obtained.
public struct CredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, in words.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) {
        self.message = message
    }

    /// `CredentialError: <message>`.
    public var description: String { "CredentialError: \(message)" }
}

/// Credentials given in code.
///
/// ```swift
/// let provider = StaticCredentialProvider(AWSCredentials(accessKeyID: "id", secretAccessKey: "key"))
/// ```
public struct StaticCredentialProvider: CredentialProvider {
    /// The credentials it returns.
    public let credentials: AWSCredentials

    /// Creates a provider that always returns `credentials`.
    public init(_ credentials: AWSCredentials) {
        self.credentials = credentials
    }

    /// Returns the credentials.
    public func resolveCredentials() async throws -> AWSCredentials? { credentials }
}
