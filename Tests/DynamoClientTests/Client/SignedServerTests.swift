import AWSSigV4
import DynamoAPI
import DynamoServer
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoClient

/// DynamoClient's signatures against a server that verifies them (`--require-auth`).
struct SignedServerTests {
    static func withAuthServer(_ body: (TestEndpoint) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString)").path
        try """
        [tests]
        aws_access_key_id = \(TestClients.credentials.accessKeyID)
        aws_secret_access_key = \(TestClients.credentials.secretAccessKey)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = LocalDynamoServer.Configuration(dataDirectory: nil)
        configuration.credentialsFile = path
        try await withTestServer(configuration: configuration, body)
    }

    @Test func dynamoClientSignaturesVerify() async throws {
        try await Self.withAuthServer { endpoint in
            let client = try TestClients.client(endpoint: endpoint.url, transport: endpoint.transport)
            let tables = try await client.listTables(ListTablesInput())
            #expect(tables.tableNames == [])
        }
    }

    @Test func aWrongSecretIsRefused() async throws {
        try await Self.withAuthServer { endpoint in
            var configuration = DynamoClient.Configuration(
                region: "us-east-1", endpoint: endpoint.url,
                credentials: AWSCredentials(accessKeyID: TestClients.credentials.accessKeyID, secretAccessKey: "wrong"))
            configuration.sources = ConfigurationSources(environment: [:])
            configuration.retry = SleepRecorder().retry(attempts: 1)
            configuration.transport = endpoint.transport
            let client = try DynamoClient(configuration: configuration)
            let error = await #expect(throws: DynamoError.self) { _ = try await client.listTables(ListTablesInput()) }
            #expect(error?.code == .invalidSignature)
            #expect(error?.message == SigV4Refusal.signatureMismatch.message)
            #expect(error?.response?.httpStatus == 400)
        }
    }
}
