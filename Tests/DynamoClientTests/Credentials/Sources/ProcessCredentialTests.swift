import Foundation
import Testing
@testable import DynamoClient

/// `credential_process`: shell-like splitting, the JSON document, failures with stderr.
struct ProcessCredentialTests {
    @Test(arguments: [
        ("aws-vault export --format=json dev", ["aws-vault", "export", "--format=json", "dev"]),
        ("op plugin run -- 'aws creds' \"with \\\"quote\\\"\"", ["op", "plugin", "run", "--", "aws creds", "with \"quote\""]),
        ("a\\ b  c\td", ["a b", "c", "d"]),
        ("x\"y z\"w ''", ["xy zw", ""]),
        ("\"keep \\n\"", ["keep \\n"]),
        ("   ", []),
    ])
    func splitsLikeAPosixShell(line: String, words: [String]) throws {
        #expect(try ProcessCredentialProvider.split(line) == words)
    }

    @Test func unterminatedQuoteIsRefused() {
        #expect(throws: CredentialError.self) { try ProcessCredentialProvider.split("tool 'open") }
    }

    @Test func commandOutputBecomesCredentials() async throws {
        let json =
            #"{"Version": 1, "AccessKeyId": "ASIAPROC", "SecretAccessKey": "procsecret", "SessionToken": "proctoken", "Expiration": "2030-01-02T03:04:05Z", "AccountId": "123456789012"}"#
        let provider = ProcessCredentialProvider(command: "python3 -c 'import sys; print(sys.argv[1])' '\(json)'")
        #expect(
            try await provider.resolveCredentials()
                == AWSCredentials(
                    accessKeyID: "ASIAPROC", secretAccessKey: "procsecret", sessionToken: "proctoken",
                    expiration: Date(timeIntervalSince1970: 1_893_553_445), accountID: "123456789012"))
    }

    @Test func failureReportsStatusAndStderrButNeverStdout() async throws {
        let provider = ProcessCredentialProvider(command: "sh -c 'echo SECRETOUTPUT; echo token expired, run login >&2; exit 3'")
        let error = await #expect(throws: CredentialError.self) { try await provider.resolveCredentials() }
        #expect(error?.message == "credential_process sh exited with status 3: token expired, run login")
        #expect(error?.message.contains("SECRETOUTPUT") == false)
    }

    @Test func manyBytesOnStderrDoNotBlock() async throws {
        let provider = ProcessCredentialProvider(
            command:
                #"python3 -c "import sys; sys.stderr.write('e' * 300000); print('{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"s\"}')""#
        )
        let credentials = try await provider.resolveCredentials()
        #expect(credentials?.accessKeyID == "A")
    }

    @Test(arguments: [
        (#"{"Version": 2, "AccessKeyId": "A", "SecretAccessKey": "s"}"#, "unsupported Version"),
        (#"{"Version": 1, "AccessKeyId": "A"}"#, "no AccessKeyId/SecretAccessKey"),
        (#"{"Version": 1, "AccessKeyId": "A", "SecretAccessKey": "s", "Expiration": "soon"}"#, "unreadable Expiration"),
        ("not json", "not a JSON object"),
    ])
    func badDocumentsAreRefused(output: String, expected: String) throws {
        let error = #expect(throws: CredentialError.self) { try ProcessCredentialProvider.decode(Array(output.utf8), program: "tool") }
        #expect(error?.message.contains(expected) == true)
        #expect(error?.message.contains("\"s\"") == false)
    }

    @Test func missingProgramIsReported() async throws {
        let error = await #expect(throws: CredentialError.self) {
            try await ProcessCredentialProvider(command: "/nonexistent/credential-helper").resolveCredentials()
        }
        #expect(error?.message.contains("credential_process /nonexistent/credential-helper") == true)
    }
}
