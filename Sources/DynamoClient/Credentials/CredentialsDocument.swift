import DynamoAPI
import Foundation

/// The JSON document container and instance metadata endpoints answer with:
/// `{"AccessKeyId": …, "SecretAccessKey": …, "Token": …, "Expiration": "2024-01-01T00:00:00Z"}`,
/// with `AccountId` when the endpoint knows it (EKS Pod Identity).
enum CredentialsDocument {
    /// Decodes a credentials document.
    ///
    /// - Parameters:
    ///   - body: The response body.
    ///   - source: Named in error messages.
    /// - Throws: ``CredentialError`` for a body that is not such a document, or that reports a
    ///   `Code` other than `Success`.
    static func decode(_ body: [UInt8], source: String) throws -> AWSCredentials {
        guard let json = try? JSONValue(parsing: body), let members = json.objectValue else {
            throw CredentialError("\(source) returned a body that is not a JSON object")
        }
        if let code = members["Code"]?.stringValue, code != "Success" {
            throw CredentialError("\(source) returned Code \(code): \(members["Message"]?.stringValue ?? "")")
        }
        guard let keyID = members["AccessKeyId"]?.stringValue, let secret = members["SecretAccessKey"]?.stringValue else {
            throw CredentialError("\(source) returned no AccessKeyId/SecretAccessKey")
        }
        var expiration: Date?
        if let text = members["Expiration"]?.stringValue {
            guard let date = parseTimestamp(text) else {
                throw CredentialError("\(source) returned an unreadable Expiration: \(text)")
            }
            expiration = date
        }
        return try AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret,
            sessionToken: members["Token"]?.stringValue, expiration: expiration,
            accountID: members["AccountId"]?.stringValue
        )
        .headerSafe(source: source)
    }

    /// Parses an ISO 8601 timestamp with or without fractional seconds.
    static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// Small helpers the endpoint-based providers share.
extension HTTPTransport {
    /// Sends a request to a credentials or metadata endpoint (never through a proxy from the
    /// environment) and returns the body of a 200 response.
    ///
    /// - Throws: ``CredentialError`` naming `source` for another status and when the endpoint
    ///   cannot be reached (so the failure is not mistaken for one of DynamoDB's);
    ///   `CancellationError` when the task was cancelled.
    func fetch(_ request: HTTPRequest, timeouts: HTTPTimeouts, source: String) async throws -> [UInt8] {
        var direct = request
        direct.bypassesProxy = true
        let response: HTTPResponse
        do {
            response = try await send(direct, timeouts: timeouts)
        } catch let error as TransportError {
            throw CredentialError("\(source) \(request.url) could not be reached: \(error)")
        }
        guard response.status == 200 else {
            throw CredentialError(
                "\(source) answered HTTP \(response.status): "
                    + String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        return response.body
    }
}
