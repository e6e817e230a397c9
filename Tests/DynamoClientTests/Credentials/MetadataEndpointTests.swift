import DynamoAPI
import Foundation
import Synchronization
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// Requests to the container and instance metadata endpoints: no proxy, no header injection,
/// failures reported as credential failures, the region from instance metadata.
struct MetadataEndpointTests {
    static func sources(_ environment: [String: String], files: [String: String] = [:]) -> ConfigurationSources {
        ConfigurationSources(environment: ["HOME": "/home/tester"].merging(environment) { $1 }, files: files)
    }

    static let document = #"{"AccessKeyId":"ASIATEMP","SecretAccessKey":"s","Token":"t","Expiration":"2030-01-02T03:04:05Z"}"#

    /// Answers from a script and records what it was asked.
    final class ScriptedTransport: HTTPTransport {
        private let state: Mutex<(script: [HTTPResponse], requests: [HTTPRequest])>

        init(_ bodies: [String]) {
            state = Mutex((bodies.map { HTTPResponse(status: 200, body: Array($0.utf8)) }, []))
        }

        var requests: [HTTPRequest] { state.withLock { $0.requests } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            try state.withLock { state in
                state.requests.append(request)
                guard !state.script.isEmpty else { throw TransportError(.connectionFailed, "script ended") }
                return state.script.removeFirst()
            }
        }
    }

    @Test(arguments: [
        ["AWS_CONTAINER_AUTHORIZATION_TOKEN": "token\r\nX-Injected: 1"],
        ["AWS_CONTAINER_AUTHORIZATION_TOKEN": "token\nX-Injected: 1"],
        ["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "/var/run/token"],
    ])
    func containerTokenWithLineBreakIsRefusedAndNeverSent(environment: [String: String]) async throws {
        try await withFakeServer([.respond(status: 200, body: Self.document, crc: .absent)]) { server in
            let sources = Self.sources(
                environment.merging(["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:\(server.port)/creds"]) { $1 },
                files: ["/var/run/token": "token\rX-Injected: 1\n"])
            let error = await #expect(throws: CredentialError.self) {
                try await ContainerCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport()).resolveCredentials()
            }
            #expect(error?.message.contains("line break") == true)
            #expect(error?.message.contains("AWS_CONTAINER_AUTHORIZATION_TOKEN") == true)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func credentialsWithLineBreaksAreRefused() async throws {
        let environment = Self.sources(["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s", "AWS_SESSION_TOKEN": "t\r\nX: 1"])
        await #expect(throws: CredentialError.self) { try await EnvironmentCredentialProvider(sources: environment).resolveCredentials() }
        let document = #"{"AccessKeyId":"ASIA\nX: 1","SecretAccessKey":"s"}"#
        #expect(throws: CredentialError.self) { try CredentialsDocument.decode(Array(document.utf8), source: "test") }
        // An instance metadata token with a line break is not sent back.
        let transport = ScriptedTransport(["token\r\nX: 1", "role", Self.document])
        let imds = InstanceMetadataCredentialProvider(
            sources: Self.sources(["AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://imds"]),
            transport: transport)
        await #expect(throws: CredentialError.self) { try await imds.resolveCredentials() }
        #expect(transport.requests.count == 1)
    }

    @Test func transportNeverSendsAHeaderWithALineBreak() async throws {
        try await withFakeServer([.ok()]) { server in
            let request = HTTPRequest(method: "GET", url: server.url, headers: [("X-Test", "a\r\nX-Injected: 1")])
            let error = await #expect(throws: TransportError.self) {
                try await TestTransport.defaultSocketTransport().send(request, timeouts: HTTPTimeouts())
            }
            #expect(error?.kind == .invalidRequest)
            let badURL = HTTPRequest(method: "GET", url: server.url + "x\r\nX-Injected: 1")
            await #expect(throws: TransportError.self) { try await TestTransport.defaultSocketTransport().send(badURL, timeouts: HTTPTimeouts()) }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func regionWithLineBreakIsRefused() throws {
        var configuration = DynamoClient.Configuration(region: "us-east-1\r\nX: 1", credentials: TestClients.credentials)
        configuration.sources = Self.sources([:])
        #expect(throws: DynamoClientError.invalidRegion("us-east-1\r\nX: 1")) { try DynamoClient(configuration: configuration) }
    }

    @Test func metadataRequestsBypassProxies() async throws {
        let container = ScriptedTransport([Self.document])
        _ = try await ContainerCredentialProvider(
            sources: Self.sources(["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/creds"]), transport: container
        ).resolveCredentials()
        let imds = ScriptedTransport(["token", "role", Self.document])
        _ = try await InstanceMetadataCredentialProvider(sources: Self.sources([:]), transport: imds).resolveCredentials()
        let requests = container.requests + imds.requests
        #expect(requests.count == 4)
        #expect(requests.allSatisfy { $0.bypassesProxy })
        #expect(
            requests.map(\.url) == [
                "http://169.254.170.2/v2/creds", "http://169.254.169.254/latest/api/token",
                "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
                "http://169.254.169.254/latest/meta-data/iam/security-credentials/role",
            ])
    }

    /// An unreachable container endpoint is a `CredentialError` naming it, not a DynamoDB
    /// transport error, and DynamoDB is never called.
    @Test func unreachableContainerEndpointIsACredentialError() async throws {
        try await withRefusingPort { (port: Int) async throws -> Void in
            try await withFakeServer([.ok()]) { server in
                var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: server.url)
                configuration.sources = Self.sources([
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:\(port)/creds", "AWS_EC2_METADATA_DISABLED": "true",
                ])
                configuration.retry = SleepRecorder().retry()
                let client = try DynamoClient(configuration: configuration)
                let error = await #expect(throws: CredentialError.self) { try await client.listTables(ListTablesInput()) }
                #expect(error?.message.contains("container credentials endpoint") == true)
                #expect(server.requests.isEmpty)
            }
        }
    }

    @Test func regionChainEndsWithInstanceMetadata() async throws {
        let transport = ScriptedTransport(["token", "eu-west-3\n"])
        var configuration = DynamoClient.Configuration(credentials: TestClients.credentials)
        configuration.sources = Self.sources([:])
        configuration.transport = transport
        let client = try await DynamoClient(resolving: configuration)
        #expect(client.region == "eu-west-3")
        #expect(
            transport.requests.map(\.url) == [
                "http://169.254.169.254/latest/api/token",
                "http://169.254.169.254/latest/meta-data/placement/region",
            ])
        #expect(transport.requests[1].header("x-aws-ec2-metadata-token") == "token")

        // A region from the environment wins without asking; disabled metadata leaves none.
        let unused = ScriptedTransport([])
        configuration.transport = unused
        configuration.sources = Self.sources(["AWS_REGION": "ap-south-1"])
        #expect(try await DynamoClient(resolving: configuration).region == "ap-south-1")
        configuration.sources = Self.sources(["AWS_EC2_METADATA_DISABLED": "true"])
        await #expect(throws: DynamoClientError.missingRegion) { try await DynamoClient(resolving: configuration) }
        #expect(unused.requests.isEmpty)
    }
}
