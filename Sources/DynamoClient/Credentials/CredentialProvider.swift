import Foundation

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
