import Foundation
import Synchronization
@testable import DynamoClient

/// Scripted answers of STS, IAM Identity Center OIDC and the SSO portal, for
/// ``FakeHTTPServer``, and injected sources that point the client at it.
enum FakeAWS {
    static let home = "/home/tester"

    /// Files written through ``ConfigurationSources/writeFile``, read back before the originals.
    final class WrittenFiles: Sendable {
        private let files = Mutex<[String: String]>([:])
        subscript(path: String) -> String? { files.withLock { $0[path] } }
        var isEmpty: Bool { files.withLock { $0.isEmpty } }
        func write(_ path: String, _ text: String) { files.withLock { $0[path] = text } }
    }

    /// Sources with a home directory, the given variables and in-memory files; writes go to
    /// `written`.
    static func sources(
        _ environment: [String: String] = [:], files: [String: String] = [:],
        written: WrittenFiles = WrittenFiles()
    ) -> ConfigurationSources {
        var sources = ConfigurationSources(environment: ["HOME": home].merging(environment) { $1 }) { (path: String) -> String? in
            written[path] ?? files[path]
        }
        sources.writeFile = { path, text in
            written.write(path, text)
            return true
        }
        return sources
    }

    /// An STS `<Action>Response` with credentials for `accountID`.
    static func stsAnswer(
        _ action: String = "AssumeRole", keyID: String = "ASIAROLE", secret: String = "rolesecret",
        token: String = "roletoken", expiration: String = "2030-01-02T03:04:05Z",
        accountID: String = "123456789012"
    ) -> FakeHTTPServer.Action {
        .respond(
            status: 200, headers: ["Content-Type": "text/xml"],
            body: """
                <?xml version="1.0" encoding="UTF-8"?>
                <\(action)Response xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
                  <\(action)Result>
                    <AssumedRoleUser>
                      <AssumedRoleId>AROA3XFRBF23:session</AssumedRoleId>
                      <Arn>arn:aws:sts::\(accountID):assumed-role/reader/session</Arn>
                    </AssumedRoleUser>
                    <Credentials>
                      <AccessKeyId>\(keyID)</AccessKeyId>
                      <SecretAccessKey>\(secret)</SecretAccessKey>
                      <SessionToken>\(token)</SessionToken>
                      <Expiration>\(expiration)</Expiration>
                    </Credentials>
                  </\(action)Result>
                  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
                </\(action)Response>
                """, crc: .absent)
    }

    /// An STS error document.
    static func stsError(_ status: Int, _ code: String, _ message: String) -> FakeHTTPServer.Action {
        .respond(
            status: status, headers: ["Content-Type": "text/xml"],
            body: """
                <ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
                  <Error><Type>Sender</Type><Code>\(code)</Code><Message>\(message)</Message></Error>
                  <RequestId>4e1d2a1b</RequestId>
                </ErrorResponse>
                """, crc: .absent)
    }

    /// The portal's `GetRoleCredentials` answer.
    static func portalAnswer(keyID: String = "ASIASSO", expirationMilliseconds: Int = 1_893_553_445_000) -> FakeHTTPServer.Action {
        .respond(
            status: 200,
            body: #"{"roleCredentials":{"accessKeyId":"\#(keyID)","secretAccessKey":"ssosecret","#
                + #""sessionToken":"ssotoken","expiration":\#(expirationMilliseconds)}}"#, crc: .absent)
    }

    /// A form body's fields, decoded.
    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
