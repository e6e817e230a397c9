import DynamoAPI
import Foundation

/// Credentials printed by an external command, the profile key `credential_process`
/// (1Password, aws-vault, granted, ...).
///
/// The command line is split like a POSIX shell does (quotes and backslashes, no variables
/// or globbing), as the AWS CLI does on Linux and macOS, and the program is found on `PATH`.
/// Its standard output must be `{"Version": 1, "AccessKeyId": …, "SecretAccessKey": …,
/// "SessionToken": …, "Expiration": "<ISO 8601>", "AccountId": …}` (the last three optional).
/// A non-zero exit is reported with the command's standard error; the output is never logged
/// or put into an error, since it holds secrets.
///
/// Running a command needs `Process`, which exists on macOS and Linux only: on iOS, tvOS,
/// watchOS and visionOS the provider reports that it cannot run there.
public struct ProcessCredentialProvider: CredentialProvider {
    /// The command line.
    public let command: String

    /// Creates the provider for a command line.
    public init(command: String) {
        self.command = command
    }

    /// The command's credentials.
    ///
    /// - Throws: ``CredentialError`` when the command cannot be started, fails (its standard
    ///   error in the message) or prints something that is not a version 1 document.
    public func resolveCredentials() async throws -> AWSCredentials? {
        let arguments = try Self.split(command)
        guard !arguments.isEmpty else { throw CredentialError("credential_process is empty") }
        let program = arguments[0]
        #if os(macOS) || os(Linux)
            let result = try await CommandRunner.run(arguments)
            guard result.status == 0 else {
                let stderr = String(decoding: result.standardError.prefix(1000), as: UTF8.self).trimmingASCIIWhitespace()
                throw CredentialError("credential_process \(program) exited with status \(result.status): \(stderr)")
            }
            return try Self.decode(result.standardOutput, program: program)
        #else
            throw CredentialError("credential_process \(program) cannot run: this platform has no Process")
        #endif
    }

    /// Decodes the command's output.
    static func decode(_ output: [UInt8], program: String) throws -> AWSCredentials {
        guard let json = try? JSONValue(parsing: output), let members = json.objectValue else {
            throw CredentialError("credential_process \(program) printed something that is not a JSON object")
        }
        guard case .number(let version)? = members["Version"], version == "1" else {
            throw CredentialError("credential_process \(program) printed an unsupported Version (expected 1)")
        }
        guard let keyID = members["AccessKeyId"]?.stringValue, let secret = members["SecretAccessKey"]?.stringValue else {
            throw CredentialError("credential_process \(program) printed no AccessKeyId/SecretAccessKey")
        }
        var expiration: Date?
        if let text = members["Expiration"]?.stringValue {
            guard let date = CredentialsDocument.parseTimestamp(text) else {
                throw CredentialError("credential_process \(program) printed an unreadable Expiration: \(text)")
            }
            expiration = date
        }
        return try AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: members["SessionToken"]?.stringValue,
            expiration: expiration, accountID: members["AccountId"]?.stringValue
        )
        .headerSafe(source: "credential_process \(program)")
    }

    /// Splits a command line as a POSIX shell does: whitespace separates words; single quotes
    /// keep everything; double quotes keep everything but a backslash before `\`, `"`, `$`,
    /// `` ` `` or a newline; a backslash outside quotes keeps the next character.
    ///
    /// - Throws: ``CredentialError`` for an unterminated quote.
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n", "\r", "\r\n":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw CredentialError("credential_process has an unterminated ' quote") }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw CredentialError("credential_process has an unterminated \" quote") }
                    if next == "\"" { break }
                    if next == "\\", let escaped = characters.next() {
                        if !"\\\"$`\n".contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let escaped = characters.next() { word.append(escaped) }
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
