import Synchronization

/// Where a ``CognitoIdentityCredentialProvider`` keeps the identity id that `GetId` gave it, so
/// an app asks for it once per installation rather than once per launch (every `GetId` without
/// logins creates a new unauthenticated identity in the pool).
///
/// Back it with the keychain in an app; ``InMemoryCognitoIdentityIDStore`` keeps it for the
/// process's lifetime only.
///
/// ```swift
/// struct KeychainIdentityStore: CognitoIdentityIDStore {
///     func identityID(forPool poolID: String) async -> String? { /* SecItemCopyMatching */ nil }
///     func setIdentityID(_ identityID: String?, forPool poolID: String) async { /* SecItemAdd / SecItemDelete */ }
/// }
/// ```
public protocol CognitoIdentityIDStore: Sendable {
    /// The stored identity id of an identity pool, or `nil` when none is stored.
    func identityID(forPool poolID: String) async -> String?
    /// Stores (or, with `nil`, forgets) the identity id of an identity pool.
    func setIdentityID(_ identityID: String?, forPool poolID: String) async
}

/// A ``CognitoIdentityIDStore`` in memory: identity ids last as long as the store.
public final class InMemoryCognitoIdentityIDStore: CognitoIdentityIDStore {
    private let ids = Mutex<[String: String]>([:])

    /// Creates an empty store.
    public init() {}

    /// The stored identity id of the pool.
    public func identityID(forPool poolID: String) async -> String? { ids.withLock { $0[poolID] } }

    /// Stores or forgets the identity id of the pool.
    public func setIdentityID(_ identityID: String?, forPool poolID: String) async {
        ids.withLock { $0[poolID] = identityID }
    }
}

/// An identity that the app's own back end registered with Cognito
/// (`GetOpenIdTokenForDeveloperIdentity`): its id and the OpenID token for it.
public struct CognitoDeveloperIdentity: Sendable, Hashable {
    /// The identity id (`<region>:<uuid>`).
    public var identityID: String
    /// The OpenID Connect token Cognito issued for the identity.
    public var token: String

    /// Creates a developer-authenticated identity.
    ///
    /// - Parameters:
    ///   - identityID: The `IdentityId` the back end received.
    ///   - token: The `Token` the back end received.
    public init(identityID: String, token: String) {
        self.identityID = identityID
        self.token = token
    }
}
