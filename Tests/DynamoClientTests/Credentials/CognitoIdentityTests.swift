import DynamoAPI
import Foundation
import Synchronization
import Testing
@testable import DynamoClient

/// `CognitoIdentityCredentialProvider` against moto's Cognito Identity and DynamoDB (one moto
/// server serves both), and its endpoint and identity-id rules in process.
@Suite(.serialized)
struct CognitoIdentityTests {
    /// Passes requests to the platform's transport and records them.
    final class RecordingTransport: HTTPTransport {
        private let inner = DynamoClient.defaultTransport(maximumConnections: 4)
        private let sent = Mutex<[HTTPRequest]>([])

        var requests: [HTTPRequest] { sent.withLock { $0 } }

        func requests(target prefix: String) -> [HTTPRequest] {
            requests.filter { $0.header("X-Amz-Target")?.hasPrefix(prefix) == true }
        }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            sent.withLock { $0.append(request) }
            return try await inner.send(request, timeouts: timeouts)
        }
    }

    /// Creates an identity pool in moto with boto3; returns its id and a developer identity's
    /// id and OpenID token.
    static func createPool(endpoint: String) throws -> (pool: String, developerID: String, developerToken: String) {
        let script = """
            import boto3, json, sys
            c = boto3.client("cognito-identity", endpoint_url=sys.argv[1], region_name="us-east-1",
                             aws_access_key_id="AKIDTEST", aws_secret_access_key="secret")
            pool = c.create_identity_pool(IdentityPoolName="app", AllowUnauthenticatedIdentities=True,
                                          DeveloperProviderName="login.example")["IdentityPoolId"]
            dev = c.get_open_id_token_for_developer_identity(IdentityPoolId=pool, Logins={"login.example": "user-1"})
            print(json.dumps([pool, dev["IdentityId"], dev["Token"]]))
            """
        let output = try PythonRunner.run(script: script, input: "", arguments: [endpoint])
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String])
        return (fields[0], fields[1], fields[2])
    }

    /// A client for moto's DynamoDB signing with `provider`'s credentials, through `transport`.
    static func client(endpoint: String, provider: any CredentialProvider, transport: any HTTPTransport) throws -> DynamoClient {
        var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: endpoint)
        configuration.credentialProvider = provider
        configuration.transport = transport
        configuration.sources = ConfigurationSources(environment: [:])
        configuration.retry = .disabled
        return try DynamoClient(configuration: configuration)
    }

    /// The DynamoDB requests were signed with these credentials.
    static func expectSigned(_ requests: [HTTPRequest], with credentials: AWSCredentials) {
        #expect(!requests.isEmpty)
        for request in requests {
            #expect(request.header("Authorization")?.contains("Credential=\(credentials.accessKeyID)/") == true)
            #expect(request.header("X-Amz-Security-Token") == credentials.sessionToken)
        }
    }

    static func loginsSent(_ request: HTTPRequest?) throws -> [String: String]? {
        let body = try #require(request?.body)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return object["Logins"] as? [String: String]
    }

    @Test func unauthenticatedIdentitySignsDynamoDBRequestsAndGetIdRunsOnce() async throws {
        try await MotoServer.with { url in
            let (pool, _, _) = try Self.createPool(endpoint: url)
            let transport = RecordingTransport()
            let store = InMemoryCognitoIdentityIDStore()
            let provider = try CognitoIdentityCredentialProvider(
                identityPoolID: pool, region: "us-east-1",
                sources: ConfigurationSources(environment: ["AWS_ENDPOINT_URL_COGNITO_IDENTITY": url]),
                identityStore: store, transport: transport)
            let client = try Self.client(endpoint: url, provider: provider, transport: transport)
            _ = try await client.listTables(ListTablesInput())
            _ = try await client.listTables(ListTablesInput())
            let credentials = try #require(try await provider.resolveCredentials())
            #expect(credentials.sessionToken != nil && credentials.expiration != nil)
            Self.expectSigned(transport.requests(target: "DynamoDB_"), with: credentials)
            #expect(transport.requests(target: "AWSCognitoIdentityService.GetId").count == 1)
            #expect(try Self.loginsSent(transport.requests(target: "AWSCognitoIdentityService.GetCredentials").first) == nil)
            let identity = try #require(await provider.identityID)
            #expect(await store.identityID(forPool: pool) == identity)

            // A later launch with the persisted id skips GetId and keeps the identity.
            let relaunched = try CognitoIdentityCredentialProvider(
                identityPoolID: pool, region: "us-east-1", endpoint: url, identityStore: store, transport: transport)
            _ = try await relaunched.resolveCredentials()
            #expect(transport.requests(target: "AWSCognitoIdentityService.GetId").count == 1)
            #expect(await relaunched.identityID == identity)
        }
    }

    @Test func authenticatedIdentitySendsItsLoginsAndFollowsTheirChanges() async throws {
        try await MotoServer.with { url in
            let (pool, _, _) = try Self.createPool(endpoint: url)
            let transport = RecordingTransport()
            let provider = try CognitoIdentityCredentialProvider(
                identityPoolID: pool, region: "us-east-1", logins: ["accounts.google.com": "token-1"],
                sources: ConfigurationSources(environment: ["AWS_ENDPOINT_URL": url]), transport: transport)
            let client = try Self.client(endpoint: url, provider: provider, transport: transport)
            _ = try await client.listTables(ListTablesInput())
            let credentials = try #require(try await provider.resolveCredentials())
            Self.expectSigned(transport.requests(target: "DynamoDB_"), with: credentials)
            #expect(try Self.loginsSent(transport.requests(target: "AWSCognitoIdentityService.GetId").first) == ["accounts.google.com": "token-1"])
            #expect(
                try Self.loginsSent(transport.requests(target: "AWSCognitoIdentityService.GetCredentials").last) == ["accounts.google.com": "token-1"]
            )

            await provider.setLogins(["accounts.google.com": "token-2"])
            _ = try await client.listTables(ListTablesInput())
            #expect(
                try Self.loginsSent(transport.requests(target: "AWSCognitoIdentityService.GetCredentials").last) == ["accounts.google.com": "token-2"]
            )
            #expect(transport.requests(target: "AWSCognitoIdentityService.GetId").count == 1)
        }
    }

    @Test func developerAuthenticatedIdentityUsesTheBackEndsToken() async throws {
        try await MotoServer.with { url in
            let (pool, developerID, token) = try Self.createPool(endpoint: url)
            let transport = RecordingTransport()
            let calls = Mutex(0)
            let provider = try CognitoIdentityCredentialProvider(
                identityPoolID: pool, region: "us-east-1",
                developerIdentity: {
                    calls.withLock { $0 += 1 }
                    return CognitoDeveloperIdentity(identityID: developerID, token: token)
                },
                endpoint: url, transport: transport)
            let client = try Self.client(endpoint: url, provider: provider, transport: transport)
            _ = try await client.listTables(ListTablesInput())
            let credentials = try #require(try await provider.resolveCredentials())
            Self.expectSigned(transport.requests(target: "DynamoDB_"), with: credentials)
            #expect(transport.requests(target: "AWSCognitoIdentityService.GetId").isEmpty)
            let fetch = transport.requests(target: "AWSCognitoIdentityService.GetCredentials").first
            #expect(try Self.loginsSent(fetch) == ["cognito-identity.amazonaws.com": token])
            #expect(await provider.identityID == developerID)
            #expect(calls.withLock { $0 } >= 1)
        }
    }

    @Test func endpointFollowsTheUsualRules() throws {
        func endpoint(_ environment: [String: String], code: String? = nil, region: String = "eu-west-1") throws -> String {
            try CognitoIdentityService.endpoint(code: code, region: region, sources: ConfigurationSources(environment: environment), profile: nil)
        }
        #expect(try endpoint([:]) == "https://cognito-identity.eu-west-1.amazonaws.com/")
        #expect(try endpoint([:], region: "cn-north-1") == "https://cognito-identity.cn-north-1.amazonaws.com.cn/")
        #expect(try endpoint(["AWS_ENDPOINT_URL": "http://a:1"]) == "http://a:1/")
        #expect(try endpoint(["AWS_ENDPOINT_URL": "http://a:1", "AWS_ENDPOINT_URL_COGNITO_IDENTITY": "http://b:2"]) == "http://b:2/")
        #expect(
            try endpoint(["AWS_ENDPOINT_URL_COGNITO_IDENTITY": "http://b:2", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"])
                == "https://cognito-identity.eu-west-1.amazonaws.com/")
        #expect(try endpoint(["AWS_ENDPOINT_URL_COGNITO_IDENTITY": "http://b:2"], code: "http://c:3") == "http://c:3/")
        #expect(throws: DynamoClientError.invalidEndpoint("ftp://x")) { try endpoint([:], code: "ftp://x") }
        #expect(throws: DynamoClientError.invalidRegion("eu west")) { try endpoint([:], region: "eu west") }
    }

    /// A stored identity Cognito no longer knows is dropped and replaced by a new `GetId`, once.
    @Test func staleStoredIdentityIsReplacedOnce() async throws {
        let responses: [HTTPResponse] = [
            HTTPResponse(status: 400, body: Array(#"{"__type":"ResourceNotFoundException","message":"gone"}"#.utf8)),
            HTTPResponse(status: 200, body: Array(#"{"IdentityId":"us-east-1:new"}"#.utf8)),
            HTTPResponse(
                status: 200,
                body: Array(
                    #"{"IdentityId":"us-east-1:new","Credentials":{"AccessKeyId":"ASIA1","SecretKey":"s","SessionToken":"t","Expiration":4102444800}}"#
                        .utf8)),
        ]
        let scripted = ScriptedResponses(responses)
        let store = InMemoryCognitoIdentityIDStore()
        await store.setIdentityID("us-east-1:old", forPool: "us-east-1:pool")
        let provider = try CognitoIdentityCredentialProvider(
            identityPoolID: "us-east-1:pool", region: "us-east-1", sources: ConfigurationSources(environment: [:]),
            identityStore: store, transport: scripted)
        let credentials = try #require(try await provider.resolveCredentials())
        #expect(credentials.accessKeyID == "ASIA1")
        #expect(credentials.expiration == Date(timeIntervalSince1970: 4102444800))
        #expect(await store.identityID(forPool: "us-east-1:pool") == "us-east-1:new")
        #expect(
            scripted.targets == [
                "AWSCognitoIdentityService.GetCredentialsForIdentity", "AWSCognitoIdentityService.GetId",
                "AWSCognitoIdentityService.GetCredentialsForIdentity",
            ])
        #expect(scripted.requests.allSatisfy { $0.header("Authorization") == nil })
    }

    /// Answers with scripted responses, whatever the status.
    final class ScriptedResponses: HTTPTransport {
        private let state: Mutex<(script: [HTTPResponse], requests: [HTTPRequest])>

        init(_ responses: [HTTPResponse]) { state = Mutex((responses, [])) }

        var requests: [HTTPRequest] { state.withLock { $0.requests } }
        var targets: [String] { requests.compactMap { $0.header("X-Amz-Target") } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            try state.withLock { state in
                state.requests.append(request)
                guard !state.script.isEmpty else { throw TransportError(.connectionFailed, "script ended") }
                return state.script.removeFirst()
            }
        }
    }
}
