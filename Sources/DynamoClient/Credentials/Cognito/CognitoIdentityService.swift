import Foundation

/// The two Cognito Identity calls a credential provider needs, `GetId` and
/// `GetCredentialsForIdentity` (JSON 1.1 over HTTP POST). Neither is signed: Cognito answers them
/// for anyone who knows the pool, which is the point of an identity pool.
struct CognitoIdentityService: Sendable {
    /// The endpoint URL, ending in `/`.
    let endpoint: String
    let transport: any HTTPTransport
    let timeouts: HTTPTimeouts

    /// A failure Cognito reported: its `__type` without namespace, and its message.
    struct ServiceError: Error, Sendable {
        var type: String
        var message: String
        var status: Int
    }

    /// Resolves the endpoint: `endpoint` given in code, `AWS_ENDPOINT_URL_COGNITO_IDENTITY`,
    /// `AWS_ENDPOINT_URL`, the profile's `[services]` `cognito_identity` / `endpoint_url`, else
    /// `https://cognito-identity.<region>.amazonaws.com/`.
    static func endpoint(
        code: String?, region: String, sources: ConfigurationSources,
        profile: String?
    ) throws(DynamoClientError) -> String {
        guard ServiceLocation.isValidRegion(region) else { throw .invalidRegion(region) }
        let shared = SharedConfiguration(sources: sources, profile: profile)
        return try ServiceLocation.validated(
            code
                ?? ServiceLocation.configuredEndpoint(
                    envSuffix: "COGNITO_IDENTITY", service: "cognito_identity",
                    sources: sources, profile: shared)
                ?? "https://cognito-identity.\(region).\(ServiceLocation.domain(region: region))")
    }

    /// `GetId`: the identity id for the pool and logins (a new one for an empty `logins`).
    func getID(poolID: String, logins: [String: String]) async throws -> String {
        var body: [String: Any] = ["IdentityPoolId": poolID]
        if !logins.isEmpty { body["Logins"] = logins }
        let answer = try await call("GetId", body)
        guard let id = answer["IdentityId"] as? String, !id.isEmpty else {
            throw CredentialError("Cognito GetId answered without an IdentityId")
        }
        return id
    }

    /// `GetCredentialsForIdentity`: temporary credentials for the identity.
    func credentials(identityID: String, logins: [String: String]) async throws -> AWSCredentials {
        var body: [String: Any] = ["IdentityId": identityID]
        if !logins.isEmpty { body["Logins"] = logins }
        let answer = try await call("GetCredentialsForIdentity", body)
        guard let document = answer["Credentials"] as? [String: Any],
            let accessKey = document["AccessKeyId"] as? String, let secret = document["SecretKey"] as? String
        else {
            throw CredentialError("Cognito GetCredentialsForIdentity answered without credentials")
        }
        let credentials = AWSCredentials(
            accessKeyID: accessKey, secretAccessKey: secret,
            sessionToken: document["SessionToken"] as? String,
            expiration: Self.date(document["Expiration"]))
        for field in [credentials.accessKeyID, credentials.secretAccessKey, credentials.sessionToken ?? ""]
        where !field.isSafeHeaderText {
            throw CredentialError("Cognito credentials contain CR, LF or NUL")
        }
        return credentials
    }

    /// Timestamps in JSON 1.1 are epoch seconds; ISO 8601 text is accepted too.
    private static func date(_ value: Any?) -> Date? {
        if let seconds = value as? Double { return Date(timeIntervalSince1970: seconds) }
        if let seconds = value as? Int { return Date(timeIntervalSince1970: Double(seconds)) }
        if let text = value as? String {
            if let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
            return ISO8601DateFormatter().date(from: text)
        }
        return nil
    }

    private func call(_ operation: String, _ body: [String: Any]) async throws -> [String: Any] {
        let bytes = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        let request = HTTPRequest(
            method: "POST", url: endpoint,
            headers: [
                ("Content-Type", "application/x-amz-json-1.1"),
                ("X-Amz-Target", "AWSCognitoIdentityService.\(operation)"),
                ("User-Agent", DynamoClient.userAgent),
            ], body: [UInt8](bytes))
        let response: HTTPResponse
        do {
            response = try await transport.send(request, timeouts: timeouts)
        } catch let error as TransportError {
            throw CredentialError("Cognito \(operation) failed: \(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard response.status == 200 else {
            let rawType = (object?["__type"] as? String) ?? response.header("x-amzn-errortype") ?? "HTTP \(response.status)"
            let type = String(rawType.split(separator: "#").last ?? Substring(rawType)).split(separator: ":").first.map(String.init) ?? rawType
            let message = (object?["message"] as? String) ?? (object?["Message"] as? String) ?? ""
            throw ServiceError(type: type, message: message, status: response.status)
        }
        guard let object else { throw CredentialError("Cognito \(operation) answered with a body that is not a JSON object") }
        return object
    }
}
