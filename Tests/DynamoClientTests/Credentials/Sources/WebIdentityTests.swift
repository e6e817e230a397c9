import Foundation
import Synchronization
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// `AWS_WEB_IDENTITY_TOKEN_FILE` / `web_identity_token_file`: unsigned
/// `AssumeRoleWithWebIdentity`, the token file read on every refresh.
struct WebIdentityTests {
    @Test func environmentTokenFileIsReadOnEveryRefresh() async throws {
        try await withFakeServer([
            FakeAWS.stsAnswer("AssumeRoleWithWebIdentity", keyID: "ASIAONE"),
            FakeAWS.stsAnswer("AssumeRoleWithWebIdentity", keyID: "ASIATWO"),
        ]) { server in
            let files = Mutex(["/var/run/secrets/token": "first-token\n"])
            var sources = ConfigurationSources(environment: [
                "HOME": FakeAWS.home, "AWS_ENDPOINT_URL_STS": server.url, "AWS_REGION": "us-west-2",
                "AWS_WEB_IDENTITY_TOKEN_FILE": "/var/run/secrets/token", "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/pod",
                "AWS_ROLE_SESSION_NAME": "pod-session",
            ]) { path in files.withLock { $0[path] } }
            sources.writeFile = { _, _ in false }
            let provider = WebIdentityCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport())
            let first = try await provider.resolveCredentials()
            #expect(first?.accessKeyID == "ASIAONE")
            files.withLock { $0["/var/run/secrets/token"] = "rotated-token" }
            let second = try await provider.resolveCredentials()
            #expect(second?.accessKeyID == "ASIATWO")
            #expect(second?.accountID == "123456789012")
            let bodies = server.requests.map { FakeAWS.form($0.body) }
            #expect(bodies.map { $0["WebIdentityToken"] } == ["first-token", "rotated-token"])
            #expect(bodies[0]["Action"] == "AssumeRoleWithWebIdentity")
            #expect(bodies[0]["RoleArn"] == "arn:aws:iam::123456789012:role/pod")
            #expect(bodies[0]["RoleSessionName"] == "pod-session")
            // Unsigned: the token is the proof.
            #expect(server.requests.allSatisfy { $0.headers["authorization"] == nil })
        }
    }

    @Test func profileKeysAndMissingRole() async throws {
        try await withFakeServer([FakeAWS.stsAnswer("AssumeRoleWithWebIdentity")]) { server in
            let config = """
                [profile ci]
                web_identity_token_file = /tmp/ci-token
                role_arn = arn:aws:iam::123456789012:role/ci
                [profile broken]
                web_identity_token_file = /tmp/ci-token
                """
            let sources = FakeAWS.sources(
                ["AWS_ENDPOINT_URL_STS": server.url],
                files: ["\(FakeAWS.home)/.aws/config": config, "/tmp/ci-token": "ci-token"])
            let credentials = try await ProfileCredentialProvider(profile: "ci", sources: sources, transport: TestTransport.defaultSocketTransport())
                .resolveCredentials()
            #expect(credentials?.accessKeyID == "ASIAROLE")
            #expect(FakeAWS.form(server.requests.first?.body ?? "")["WebIdentityToken"] == "ci-token")
            let error = await #expect(throws: CredentialError.self) {
                try await ProfileCredentialProvider(profile: "broken", sources: sources, transport: TestTransport.defaultSocketTransport())
                    .resolveCredentials()
            }
            #expect(error?.message.contains("no role ARN") == true)
        }
    }

    @Test func unreadableTokenFileIsReported() async throws {
        let sources = FakeAWS.sources(["AWS_WEB_IDENTITY_TOKEN_FILE": "/nope", "AWS_ROLE_ARN": "arn:aws:iam::1:role/r"])
        let error = await #expect(throws: CredentialError.self) {
            try await WebIdentityCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport()).resolveCredentials()
        }
        #expect(error?.message == "cannot read the web identity token file /nope")
    }

    @Test func motoAnswersAssumeRoleWithWebIdentity() async throws {
        try await MotoServer.with { url in
            let sources = FakeAWS.sources(
                [
                    "AWS_ENDPOINT_URL_STS": url, "AWS_REGION": "us-east-1", "AWS_WEB_IDENTITY_TOKEN_FILE": "/token",
                    "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/web",
                ], files: ["/token": "eyJhbGciOiJSUzI1NiJ9.e30.sig"])
            let credentials = try #require(
                try await WebIdentityCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport())
                    .resolveCredentials())
            #expect(credentials.accessKeyID.hasPrefix("ASIA"))
            #expect(credentials.sessionToken?.isEmpty == false)
        }
    }
}
