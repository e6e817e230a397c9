import Foundation
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// The default chain's order, one test per rule: environment keys → profile `role_arn` → web
/// identity (environment, then profile) → IAM Identity Center → credentials-file keys →
/// `credential_process` → config-file keys → container → instance metadata.
struct PrecedenceTests {
    static let webIdentity = [
        "AWS_WEB_IDENTITY_TOKEN_FILE": "/token", "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/web",
    ]
    static let process = #"credential_process = python3 -c "print('{\"Version\": 1, \"AccessKeyId\": \"AKIDPROCESS\", \"SecretAccessKey\": \"p\"}')""#

    static func resolve(
        _ environment: [String: String], config: String = "", credentials: String = "",
        server: FakeHTTPServer
    ) async throws -> AWSCredentials? {
        let sources = FakeAWS.sources(
            ["AWS_ENDPOINT_URL_STS": server.url, "AWS_EC2_METADATA_DISABLED": "true"].merging(environment) { $1 },
            files: ["\(FakeAWS.home)/.aws/config": config, "\(FakeAWS.home)/.aws/credentials": credentials, "/token": "jwt"])
        return try await CredentialProviderChain.default(sources: sources, transport: TestTransport.defaultSocketTransport()).resolveCredentials()
    }

    @Test func environmentKeysBeatWebIdentityAndProfiles() async throws {
        try await withFakeServer([FakeAWS.stsAnswer()]) { server in
            let credentials = try await Self.resolve(
                Self.webIdentity.merging(["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "e", "AWS_ACCOUNT_ID": "999988887777"]) { $1 },
                credentials: "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = f\n", server: server)
            #expect(credentials?.accessKeyID == "AKIDENV")
            #expect(credentials?.accountID == "999988887777")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func profileRoleBeatsWebIdentityFromEnvironment() async throws {
        try await withFakeServer([FakeAWS.stsAnswer(keyID: "ASIAPROFILEROLE")]) { server in
            let credentials = try await Self.resolve(
                Self.webIdentity,
                config:
                    "[default]\nrole_arn = arn:aws:iam::123456789012:role/p\nsource_profile = base\n[profile base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = b\n",
                server: server)
            #expect(credentials?.accessKeyID == "ASIAPROFILEROLE")
            #expect(FakeAWS.form(server.requests.first?.body ?? "")["Action"] == "AssumeRole")
        }
    }

    @Test func webIdentityFromEnvironmentBeatsProfileKeys() async throws {
        try await withFakeServer([FakeAWS.stsAnswer("AssumeRoleWithWebIdentity", keyID: "ASIAWEB")]) { server in
            let credentials = try await Self.resolve(
                Self.webIdentity, credentials: "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = f\n", server: server)
            #expect(credentials?.accessKeyID == "ASIAWEB")
        }
    }

    @Test func webIdentityWorksWithoutAnyProfile() async throws {
        try await withFakeServer([FakeAWS.stsAnswer("AssumeRoleWithWebIdentity", keyID: "ASIAEKS")]) { server in
            let credentials = try await Self.resolve(Self.webIdentity, server: server)
            #expect(credentials?.accessKeyID == "ASIAEKS")
        }
    }

    @Test func ssoBeatsKeysInTheCredentialsFile() async throws {
        try await withFakeServer([FakeAWS.portalAnswer(keyID: "ASIASSO")]) { server in
            let config = "[default]\nsso_start_url = https://x.awsapps.com/start\nsso_region = us-east-1\nsso_account_id = 1\nsso_role_name = R\n"
            let cache = #"{"accessToken":"t","expiresAt":"2099-01-01T00:00:00Z"}"#
            let sources = FakeAWS.sources(
                ["AWS_ENDPOINT_URL_SSO": server.url, "AWS_EC2_METADATA_DISABLED": "true"],
                files: [
                    "\(FakeAWS.home)/.aws/config": config,
                    "\(FakeAWS.home)/.aws/credentials": "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = f\n",
                    "\(FakeAWS.home)/.aws/sso/cache/\(SHA1.hex("https://x.awsapps.com/start")).json": cache,
                ])
            let credentials = try await CredentialProviderChain.default(sources: sources, transport: TestTransport.defaultSocketTransport())
                .resolveCredentials()
            #expect(credentials?.accessKeyID == "ASIASSO")
        }
    }

    @Test func credentialsFileKeysBeatProcessWhichBeatsConfigFileKeys() async throws {
        try await withFakeServer([.ok()]) { server in
            let fromCredentialsFile = try await Self.resolve(
                [:], config: "[default]\n\(Self.process)\n",
                credentials: "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = f\naws_account_id = 123412341234\n", server: server)
            #expect(fromCredentialsFile?.accessKeyID == "AKIDFILE")
            #expect(fromCredentialsFile?.accountID == "123412341234")
            let fromProcess = try await Self.resolve(
                [:], config: "[default]\n\(Self.process)\naws_access_key_id = AKIDCONFIG\naws_secret_access_key = c\n", server: server)
            #expect(fromProcess?.accessKeyID == "AKIDPROCESS")
            let fromConfig = try await Self.resolve(
                [:], config: "[default]\naws_access_key_id = AKIDCONFIG\naws_secret_access_key = c\n", server: server)
            #expect(fromConfig?.accessKeyID == "AKIDCONFIG")
        }
    }

    @Test func profileBeatsContainer() async throws {
        try await withFakeServer([.ok()]) { server in
            let credentials = try await Self.resolve(
                ["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:\(server.port)/creds"],
                credentials: "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = f\n", server: server)
            #expect(credentials?.accessKeyID == "AKIDFILE")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func awsProfileSelectsTheProfile() async throws {
        try await withFakeServer([.ok()]) { server in
            let credentials = try await Self.resolve(
                ["AWS_PROFILE": "other"],
                credentials:
                    "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = d\n[other]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = o\n",
                server: server)
            #expect(credentials?.accessKeyID == "AKIDOTHER")
        }
    }

    @Test func containerDocumentCarriesTheAccountID() throws {
        let document = #"{"AccessKeyId":"ASIAPOD","SecretAccessKey":"s","Token":"t","AccountId":"123456789012","Expiration":"2030-01-02T03:04:05Z"}"#
        #expect(try CredentialsDocument.decode(Array(document.utf8), source: "test").accountID == "123456789012")
    }
}
