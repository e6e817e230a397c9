import Foundation

/// The two AWS STS calls credential providers need, over STS's Query protocol: a form-encoded
/// `POST` (`Action=…&Version=2011-06-15&…`) answered with XML.
///
/// `AssumeRole` is signed with SigV4 for service `sts`; `AssumeRoleWithWebIdentity` is sent
/// unsigned (the web identity token is the proof). The endpoint is `AWS_ENDPOINT_URL_STS`,
/// `AWS_ENDPOINT_URL`, the profile's `[services]` `sts.endpoint_url` or `endpoint_url`, else the
/// regional endpoint `https://sts.<region>.amazonaws.com` (`sts-fips.` with FIPS endpoints on),
/// or the global `https://sts.amazonaws.com` (signed for `us-east-1`) when no region is known.
struct STSClient: Sendable {
    /// The endpoint URL, ending with `/`.
    let endpoint: String
    /// The signing region.
    let region: String
    let transport: any HTTPTransport
    let timeouts: HTTPTimeouts
    let clock: @Sendable () -> Date

    /// The STS API version of the Query protocol.
    static let version = "2011-06-15"

    /// Resolves the endpoint and region from the environment and the profile.
    init(
        sources: ConfigurationSources, profile: SharedConfiguration, transport: any HTTPTransport,
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(5), request: .seconds(30)),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        let region = ServiceLocation.region(code: nil, sources: sources, profile: profile)
        let configured = ServiceLocation.configuredEndpoint(envSuffix: "STS", service: "sts", sources: sources, profile: profile)
        let fips = EndpointVariants(sources: sources, profile: profile).fips
        var url =
            configured ?? region.map { "https://sts\(fips ? "-fips" : "").\($0).\(ServiceLocation.domain(region: $0))" }
            ?? "https://sts.amazonaws.com"
        if !url.hasSuffix("/") { url += "/" }
        endpoint = url
        self.region = region ?? "us-east-1"
        self.transport = transport
        self.timeouts = timeouts
        self.clock = clock
    }

    /// `AssumeRole` with the source credentials.
    ///
    /// - Throws: ``CredentialError`` with STS's error code and message, or for an answer
    ///   without credentials.
    func assumeRole(_ request: AssumeRoleRequest, with credentials: AWSCredentials) async throws -> AWSCredentials {
        var parameters = [("RoleArn", request.roleARN), ("RoleSessionName", request.sessionName)]
        if let externalID = request.externalID { parameters.append(("ExternalId", externalID)) }
        if let duration = request.durationSeconds { parameters.append(("DurationSeconds", String(duration))) }
        return try await call("AssumeRole", parameters, signingWith: credentials)
    }

    /// `AssumeRoleWithWebIdentity`, unsigned.
    ///
    /// - Throws: As ``assumeRole(_:with:)``.
    func assumeRoleWithWebIdentity(
        roleARN: String, sessionName: String, token: String,
        durationSeconds: Int? = nil
    ) async throws -> AWSCredentials {
        var parameters = [("RoleArn", roleARN), ("RoleSessionName", sessionName), ("WebIdentityToken", token)]
        if let durationSeconds { parameters.append(("DurationSeconds", String(durationSeconds))) }
        return try await call("AssumeRoleWithWebIdentity", parameters, signingWith: nil)
    }

    private func call(
        _ action: String, _ parameters: [(String, String)],
        signingWith credentials: AWSCredentials?
    ) async throws -> AWSCredentials {
        let form = ([("Action", action), ("Version", Self.version)] + parameters)
            .map { SigV4Encoding.encode($0.0) + "=" + SigV4Encoding.encode($0.1) }
            .joined(separator: "&")
        var request = HTTPRequest(
            method: "POST", url: endpoint,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
                ("User-Agent", DynamoClient.userAgent),
            ], body: Array(form.utf8))
        if let credentials {
            request = SigV4Signer(service: "sts", region: region).sign(request, credentials: credentials, date: clock())
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(request, timeouts: timeouts)
        } catch let error as TransportError {
            throw CredentialError("STS \(action) at \(endpoint) could not be reached: \(error)")
        }
        let xml = TinyXML(String(decoding: response.body, as: UTF8.self))
        guard (200..<300).contains(response.status) else {
            let code = xml.text(of: "Code", inside: "Error") ?? "HTTP \(response.status)"
            let message = xml.text(of: "Message", inside: "Error") ?? String(decoding: response.body.prefix(200), as: UTF8.self)
            throw CredentialError("STS \(action) failed: \(code): \(message)")
        }
        return try Self.credentials(from: xml, action: action)
    }

    /// The `Credentials` of an `…Result`, with the account id from `AssumedRoleUser`'s ARN.
    static func credentials(from xml: TinyXML, action: String) throws -> AWSCredentials {
        let result = action + "Result"
        guard let keyID = xml.text(of: "AccessKeyId", inside: result), let secret = xml.text(of: "SecretAccessKey", inside: result),
            let token = xml.text(of: "SessionToken", inside: result)
        else {
            throw CredentialError("STS \(action) answered without credentials")
        }
        var expiration: Date?
        if let text = xml.text(of: "Expiration", inside: result) {
            guard let date = CredentialsDocument.parseTimestamp(text) else {
                throw CredentialError("STS \(action) answered an unreadable Expiration: \(text)")
            }
            expiration = date
        }
        let accountID = xml.text(of: "Arn", inside: "AssumedRoleUser").flatMap(accountID(ofARN:))
        return try AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: token,
            expiration: expiration, accountID: accountID
        )
        .headerSafe(source: "STS \(action)")
    }

    /// The account field of an ARN (`arn:aws:sts::123456789012:assumed-role/r/s`).
    static func accountID(ofARN arn: String) -> String? {
        let fields = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "arn", !fields[4].isEmpty else { return nil }
        return String(fields[4])
    }
}

/// The parameters of one `AssumeRole` call.
struct AssumeRoleRequest: Sendable, Hashable {
    var roleARN: String
    var sessionName: String
    var externalID: String?
    var durationSeconds: Int?
}
