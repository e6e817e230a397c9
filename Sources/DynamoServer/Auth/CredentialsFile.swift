import AWSSigV4
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The identities `serve --require-auth --credentials FILE` accepts, read from a file in the AWS
/// shared-credentials format: every `[name]` section with `aws_access_key_id` and
/// `aws_secret_access_key` (and optionally `aws_session_token`) is one identity.
///
/// Errors name the file and the section, never a secret.
package enum CredentialsFile {
    /// Why a credentials file was refused.
    package struct Problem: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Reads and parses `path`.
    /// - Throws: ``Problem`` when the file cannot be read, a section lacks a key or the secret,
    ///   two sections share an access key id, or no section holds an identity.
    package static func load(_ path: String) throws(Problem) -> [String: AWSCredentials] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read the credentials file \(path)")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses the file's text.
    package static func parse(_ text: String, path: String) throws(Problem) -> [String: AWSCredentials] {
        let file = ProfileFile(parsing: text, kind: .credentials)
        var identities: [String: AWSCredentials] = [:]
        for name in file.profiles.keys.sorted() {
            let profile = file.profiles[name]!
            guard let keyID = profile["aws_access_key_id"], !keyID.isEmpty else {
                throw Problem(description: "\(path): section [\(name)] has no aws_access_key_id")
            }
            guard let secret = profile["aws_secret_access_key"], !secret.isEmpty else {
                throw Problem(description: "\(path): section [\(name)] has no aws_secret_access_key")
            }
            guard identities[keyID] == nil else {
                throw Problem(description: "\(path): access key id \(keyID) appears in two sections")
            }
            let token = profile["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 }
            identities[keyID] = AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: token)
        }
        guard !identities.isEmpty else { throw Problem(description: "\(path) holds no [section] with credentials") }
        return identities
    }
}
