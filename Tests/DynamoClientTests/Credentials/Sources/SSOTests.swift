import DynamoAPI
import Foundation
import Synchronization
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// IAM Identity Center: the CLI's token cache, the OIDC refresh-token grant, the portal.
struct SSOTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000) // 2027-01-15T08:00:00Z

    static var config: String {
        """
        [profile dev]
        sso_session = corp
        sso_account_id = 111122223333
        sso_role_name = Developer
        [sso-session corp]
        sso_start_url = https://corp.awsapps.com/start
        sso_region = eu-central-1
        sso_registration_scopes = sso:account:access
        [profile legacy]
        sso_start_url = https://legacy.awsapps.com/start
        sso_region = us-east-1
        sso_account_id = 444455556666
        sso_role_name = ReadOnly
        [profile half]
        sso_session = corp
        sso_account_id = 111122223333
        """
    }

    static let sessionCachePath = "\(FakeAWS.home)/.aws/sso/cache/\(SHA1.hex("corp")).json"
    static let legacyCachePath = "\(FakeAWS.home)/.aws/sso/cache/\(SHA1.hex("https://legacy.awsapps.com/start")).json"

    static func cache(token: String, expiresAt: String, refresh: Bool = true) -> String {
        var members: [String: JSONValue] = [
            "startUrl": .string("https://corp.awsapps.com/start"), "region": .string("eu-central-1"),
            "accessToken": .string(token), "expiresAt": .string(expiresAt),
        ]
        if refresh {
            members["clientId"] = .string("client-id")
            members["clientSecret"] = .string("client-secret")
            members["registrationExpiresAt"] = .string("2027-06-01T00:00:00Z")
            members["refreshToken"] = .string("refresh-1")
        }
        return JSONValue.object(members).serialized
    }

    static func provider(
        _ profile: String, server: FakeHTTPServer, files: [String: String],
        written: FakeAWS.WrittenFiles
    ) -> SSOCredentialProvider {
        let sources = FakeAWS.sources(
            ["AWS_ENDPOINT_URL_SSO": server.url, "AWS_ENDPOINT_URL_SSO_OIDC": server.url],
            files: files.merging(["\(FakeAWS.home)/.aws/config": config]) { $1 },
            written: written)
        return SSOCredentialProvider(profile: profile, sources: sources, transport: TestTransport.defaultSocketTransport(), now: { Self.now })
    }

    @Test func sha1MatchesTheStandardVectors() {
        #expect(SHA1.hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(SHA1.hex(String(repeating: "a", count: 1_000_000)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // Cache file names (Python's hashlib.sha1 of a session name and of a start URL).
        #expect(SHA1.hex("my-sso") == "0ad374308c5a4e22f723adf10145eafad7c4031c")
        #expect(SHA1.hex("https://my-sso-portal.awsapps.com/start") == "c7aaaf71fcc8777ae2475525ed049d39fe16c484")
    }

    @Test func cachedTokenGetsRoleCredentials() async throws {
        try await withFakeServer([FakeAWS.portalAnswer()]) { server in
            let written = FakeAWS.WrittenFiles()
            let provider = Self.provider(
                "dev", server: server,
                files: [Self.sessionCachePath: Self.cache(token: "valid-token", expiresAt: "2027-01-15T09:00:00Z")],
                written: written)
            let credentials = try await provider.resolveCredentials()
            #expect(
                credentials
                    == AWSCredentials(
                        accessKeyID: "ASIASSO", secretAccessKey: "ssosecret", sessionToken: "ssotoken",
                        expiration: Date(timeIntervalSince1970: 1_893_553_445), accountID: "111122223333"))
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.path == "/federation/credentials?account_id=111122223333&role_name=Developer")
            #expect(request.headers["x-amz-sso_bearer_token"] == "valid-token")
            #expect(written.isEmpty)
        }
    }

    @Test func expiringTokenIsRefreshedAndWrittenBack() async throws {
        let oidc = FakeHTTPServer.Action.respond(
            status: 200, body: #"{"accessToken":"new-token","expiresIn":28800,"tokenType":"Bearer","refreshToken":"refresh-2"}"#, crc: .absent)
        try await withFakeServer([oidc, FakeAWS.portalAnswer()]) { server in
            let written = FakeAWS.WrittenFiles()
            // Expires in 10 minutes: inside the 15-minute refresh window.
            let provider = Self.provider(
                "dev", server: server,
                files: [Self.sessionCachePath: Self.cache(token: "old-token", expiresAt: "2027-01-15T08:10:00Z")],
                written: written)
            let refreshed = try await provider.resolveCredentials()
            #expect(refreshed?.accessKeyID == "ASIASSO")
            let refresh = try #require(server.requests.first)
            #expect(refresh.method == "POST")
            #expect(refresh.path == "/token")
            let body = try JSONValue(parsing: refresh.body)
            #expect(body["grantType"]?.stringValue == "refresh_token")
            #expect(body["clientId"]?.stringValue == "client-id")
            #expect(body["clientSecret"]?.stringValue == "client-secret")
            #expect(body["refreshToken"]?.stringValue == "refresh-1")
            #expect(server.requests.last?.headers["x-amz-sso_bearer_token"] == "new-token")
            let cache = try JSONValue(parsing: try #require(written[Self.sessionCachePath]))
            #expect(cache["accessToken"]?.stringValue == "new-token")
            #expect(cache["refreshToken"]?.stringValue == "refresh-2")
            #expect(cache["expiresAt"]?.stringValue == "2027-01-15T16:00:00Z")
            #expect(cache["startUrl"]?.stringValue == "https://corp.awsapps.com/start")
        }
    }

    @Test func expiredTokenThatCannotBeRefreshedNamesTheLoginCommand() async throws {
        try await withFakeServer([.respond(status: 400, body: #"{"error":"invalid_grant"}"#, crc: .absent)]) { server in
            let written = FakeAWS.WrittenFiles()
            let provider = Self.provider(
                "dev", server: server,
                files: [Self.sessionCachePath: Self.cache(token: "old", expiresAt: "2027-01-15T07:00:00Z")],
                written: written)
            let error = await #expect(throws: CredentialError.self) { try await provider.resolveCredentials() }
            #expect(error?.message.contains("run 'aws sso login --profile dev'") == true)
            #expect(server.requests.count == 1) // the refresh attempt, never the portal
        }
    }

    @Test func legacyProfileUsesTheStartURLCacheAndNeverRefreshes() async throws {
        try await withFakeServer([FakeAWS.portalAnswer(keyID: "ASIALEGACY")]) { server in
            let written = FakeAWS.WrittenFiles()
            let valid = Self.provider(
                "legacy", server: server,
                files: [Self.legacyCachePath: Self.cache(token: "legacy-token", expiresAt: "2027-01-15T08:05:00UTC")],
                written: written)
            let credentials = try await valid.resolveCredentials()
            #expect(credentials?.accountID == "444455556666")
            #expect(server.requests.first?.path == "/federation/credentials?account_id=444455556666&role_name=ReadOnly")
            let expired = Self.provider(
                "legacy", server: server,
                files: [Self.legacyCachePath: Self.cache(token: "legacy-token", expiresAt: "2027-01-15T07:00:00Z")],
                written: written)
            let error = await #expect(throws: CredentialError.self) { try await expired.resolveCredentials() }
            #expect(error?.message.contains("aws sso login --profile legacy") == true)
            #expect(server.requests.count == 1)
        }
    }

    @Test func missingCacheAndIncompleteProfile() async throws {
        try await withFakeServer([FakeAWS.portalAnswer()]) { server in
            let written = FakeAWS.WrittenFiles()
            let error = await #expect(throws: CredentialError.self) {
                try await Self.provider("dev", server: server, files: [:], written: written).resolveCredentials()
            }
            #expect(error?.message.contains("no IAM Identity Center token cached") == true)
            #expect(error?.message.contains("aws sso login --profile dev") == true)
            let half = await #expect(throws: CredentialError.self) {
                try await Self.provider("half", server: server, files: [:], written: written).resolveCredentials()
            }
            #expect(half?.message == "profile 'half' is missing sso_role_name for IAM Identity Center")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func portalRejectionAsksForLogin() async throws {
        try await withFakeServer([.respond(status: 401, body: #"{"message":"Session token not found or invalid"}"#, crc: .absent)]) { server in
            let written = FakeAWS.WrittenFiles()
            let provider = Self.provider(
                "dev", server: server,
                files: [Self.sessionCachePath: Self.cache(token: "t", expiresAt: "2027-01-15T09:00:00Z")],
                written: written)
            let error = await #expect(throws: CredentialError.self) { try await provider.resolveCredentials() }
            #expect(error?.message.contains("HTTP 401") == true)
            #expect(error?.message.contains("aws sso login --profile dev") == true)
        }
    }
}
