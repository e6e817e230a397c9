import DynamoAPI
import Foundation
import Testing
@testable import DynamoClient

/// The standard retry mode against a scripted server: which failures are retried, how often,
/// with which backoff, and what the token bucket allows.
struct RetryBehaviourTests {
    @Test func throttlingThenSuccess() async throws {
        try await withFakeServer([
            .error(400, "ProvisionedThroughputExceededException", "The level of configured provisioned throughput for the table was exceeded."),
            .error(400, "ThrottlingException", "Rate of requests exceeds the allowed throughput."),
            .ok(#"{"TableNames":["a"]}"#),
        ]) { server in
            let sleeps = SleepRecorder()
            let client = try TestClients.client(endpoint: server.url, retry: sleeps.retry(random: 0.5))
            let output = try await client.listTables(ListTablesInput())
            #expect(output.tableNames == ["a"])
            #expect(server.requests.count == 3)
            #expect(sleeps.recorded == [.milliseconds(500), .seconds(1)])
            // Two retries cost 5 each; the success refunds the last retry's cost.
            #expect(client.availableRetryTokens == 495)
        }
    }

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorsAreRetriedThenReported(status: Int) async throws {
        try await withFakeServer([.error(status, "InternalServerError", "Internal server error")]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let error = await #expect(throws: DynamoError.self) { try await client.listTables(ListTablesInput()) }
            #expect(error?.code == .internalServerError)
            #expect(error?.message == "Internal server error")
            #expect(server.requests.count == 3)
            #expect(client.availableRetryTokens == 490)
        }
    }

    @Test func unexpectedGatewayPageIsRetried() async throws {
        try await withFakeServer([.respond(status: 502, body: "<html>Bad Gateway</html>"), .ok()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            _ = try await client.listTables(ListTablesInput())
            #expect(server.requests.count == 2)
        }
    }

    @Test func badChecksumIsRetried() async throws {
        try await withFakeServer([
            .respond(status: 200, body: #"{"TableNames":["x"]}"#, crc: .wrong),
            .ok(#"{"TableNames":["y"]}"#),
        ]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let output = try await client.listTables(ListTablesInput())
            #expect(output.tableNames == ["y"])
            #expect(server.requests.count == 2)
        }
    }

    @Test func persistentBadChecksumFails() async throws {
        try await withFakeServer([.respond(status: 200, body: "{}", crc: .wrong)]) { server in
            let client = try TestClients.client(endpoint: server.url, retry: SleepRecorder().retry(attempts: 2))
            await #expect { try await client.listTables(ListTablesInput()) } throws: { error in
                if case DynamoClientError.checksumMismatch = error { return true }
                return false
            }
            #expect(server.requests.count == 2)
        }
    }

    @Test func droppedConnectionIsRetried() async throws {
        try await withFakeServer([.dropConnection, .ok(#"{"TableNames":[]}"#)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let output = try await client.listTables(ListTablesInput())
            #expect(output.tableNames == [])
            #expect(server.requests.count == 2)
        }
    }

    @Test func slowResponseHitsTimeoutAndCostsTen() async throws {
        // The first answer is held for 600 s; the 300 ms timeout must give up on it (the server
        // sees the connection closed before its answer) and the retry succeed. The hold is far
        // longer than the wait below, so a loaded machine that closes late still counts as
        // abandoned: a 20 s hold could end first, as it did in TransportParityTests (b57e829).
        try await withFakeServer([.held(), .ok(#"{"TableNames":["late"]}"#)]) { server in
            let client = try TestClients.client(
                endpoint: server.url, timeouts: HTTPTimeouts(connect: .seconds(1), request: .milliseconds(300)))
            let output = try await client.listTables(ListTablesInput())
            #expect(output.tableNames == ["late"])
            #expect(try await server.abandonedDelays(reaching: 1) == 1)
            #expect(server.requests.count == 2)
            #expect(client.availableRetryTokens == 500)
        }
    }

    @Test func timeoutsExhaustAttempts() async throws {
        // Held 600 s: the 200 ms timeout decides, however late a loaded machine fires it.
        try await withFakeServer([.held()]) { server in
            let client = try TestClients.client(
                endpoint: server.url, retry: SleepRecorder().retry(attempts: 2),
                timeouts: HTTPTimeouts(connect: .seconds(1), request: .milliseconds(200)))
            let error = await #expect(throws: TransportError.self) { try await client.listTables(ListTablesInput()) }
            #expect(error?.kind == .timedOut)
            #expect(client.availableRetryTokens == 490)
        }
    }

    @Test func validationErrorIsNotRetried() async throws {
        try await withFakeServer([.error(400, "ValidationException", "1 validation error detected")]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let error = await #expect(throws: DynamoError.self) { try await client.listTables(ListTablesInput()) }
            #expect(error?.code == .validation)
            #expect(error?.message == "1 validation error detected")
            #expect(server.requests.count == 1)
        }
    }

    @Test func emptyBucketStopsRetries() async throws {
        try await withFakeServer([.error(400, "ThrottlingException", "slow down")]) { server in
            let client = try TestClients.client(endpoint: server.url, retry: SleepRecorder().retry(attempts: 5, capacity: 7))
            await #expect(throws: DynamoError.self) { try await client.listTables(ListTablesInput()) }
            // 7 tokens pay for one retry (5); the second would need 5 more.
            #expect(server.requests.count == 2)
            #expect(client.availableRetryTokens == 2)
        }
    }

    @Test func maxAttemptsFromEnvironment() async throws {
        try await withFakeServer([.error(503, "ServiceUnavailable", "busy")]) { server in
            var configuration = DynamoClient.Configuration(
                region: "us-east-1", endpoint: server.url,
                credentials: TestClients.credentials)
            configuration.sources = ConfigurationSources(environment: ["AWS_MAX_ATTEMPTS": "5"])
            let client = try DynamoClient(configuration: configuration)
            #expect(client.retry.maximumAttempts == 5)
        }
    }

    @Test func backoffIsCappedFullJitter() {
        let retry = RetryConfiguration(random: { 1.0 })
        #expect((1...6).map(retry.backoff(attempt:)) == [1, 2, 4, 8, 16, 20].map { Duration.seconds($0) })
        #expect(RetryConfiguration(random: { 0 }).backoff(attempt: 4) == .zero)
    }

    @Test func cancellationAbortsTheTransfer() async throws {
        // The server would answer after 600 s; a cancelled request must close its connection
        // before that (the server records the abandoned delay; a transfer that waited for the
        // answer would get it and abandon nothing). The hold outlasts the wait below.
        try await withFakeServer([.held()]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let task = Task { try await client.listTables(ListTablesInput()) }
            while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(try await server.abandonedDelays(reaching: 1) == 1)
        }
    }
}
