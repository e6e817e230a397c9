/// The identity id of one pool and the calls that turn it into credentials, shared by the
/// fetches of a ``CognitoIdentityCredentialProvider`` (whose logins may change).
actor CognitoIdentityResolver {
    /// Where the identity comes from.
    enum Mode: Sendable {
        /// `GetId` with these logins (empty: unauthenticated).
        case logins([String: String])
        /// The app's back end.
        case developer(@Sendable () async throws -> CognitoDeveloperIdentity)
    }

    /// The login name under which a developer identity's OpenID token is sent.
    static let developerLoginName = "cognito-identity.amazonaws.com"

    private let poolID: String
    private let service: CognitoIdentityService
    private let store: any CognitoIdentityIDStore
    private var identityID: String?
    private var loaded = false

    init(poolID: String, service: CognitoIdentityService, store: any CognitoIdentityIDStore) {
        self.poolID = poolID
        self.service = service
        self.store = store
    }

    /// The identity id known so far (cached, else stored), without asking Cognito.
    func currentIdentityID() async -> String? {
        await load()
        return identityID
    }

    /// Credentials for the identity; a stored id Cognito rejects is forgotten and replaced once.
    func credentials(_ mode: Mode) async throws -> AWSCredentials {
        switch mode {
        case .developer(let identity):
            let developer = try await identity()
            await remember(developer.identityID)
            return try await fetch(identityID: developer.identityID, logins: [Self.developerLoginName: developer.token])
        case .logins(let logins):
            await load()
            if let known = identityID {
                do {
                    return try await fetch(identityID: known, logins: logins, rethrowingStale: true)
                } catch is StaleIdentity {
                    await remember(nil)
                }
            }
            let id = try await getID(logins: logins)
            return try await fetch(identityID: id, logins: logins)
        }
    }

    /// A stored identity id Cognito does not accept any more.
    private struct StaleIdentity: Error {}

    private func fetch(identityID: String, logins: [String: String], rethrowingStale: Bool = false) async throws -> AWSCredentials {
        do {
            return try await service.credentials(identityID: identityID, logins: logins)
        } catch let error as CognitoIdentityService.ServiceError {
            if rethrowingStale, error.type == "ResourceNotFoundException" || error.type == "NotAuthorizedException" {
                throw StaleIdentity()
            }
            throw CredentialError("Cognito GetCredentialsForIdentity: \(error.type): \(error.message)")
        }
    }

    private func getID(logins: [String: String]) async throws -> String {
        let id: String
        do {
            id = try await service.getID(poolID: poolID, logins: logins)
        } catch let error as CognitoIdentityService.ServiceError {
            throw CredentialError("Cognito GetId: \(error.type): \(error.message)")
        }
        await remember(id)
        return id
    }

    private func load() async {
        guard !loaded else { return }
        loaded = true
        if identityID == nil { identityID = await store.identityID(forPool: poolID) }
    }

    private func remember(_ id: String?) async {
        loaded = true
        guard id != identityID else { return }
        identityID = id
        await store.setIdentityID(id, forPool: poolID)
    }
}
