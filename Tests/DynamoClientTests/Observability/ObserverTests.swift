import DynamoAPI
import Logging
import Synchronization
import Testing
@testable import DynamoClient

/// Per-operation reports: to the observer and as debug metadata of the client's logger.
struct ObserverTests {
    final class Recorder: DynamoClientObserver {
        private let reports = Mutex<[OperationReport]>([])
        var recorded: [OperationReport] { reports.withLock { $0 } }
        func operationDidFinish(_ report: OperationReport) { reports.withLock { $0.append(report) } }
    }

    private func client(_ server: FakeHTTPServer, observer: Recorder, log: LogRecorder) throws -> DynamoClient {
        var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: server.url, credentials: TestClients.credentials)
        configuration.sources = ConfigurationSources(environment: [:])
        configuration.retry = SleepRecorder().retry(attempts: 3)
        configuration.observer = observer
        configuration.logger = log.logger()
        return try DynamoClient(configuration: configuration)
    }

    @Test func reportsAttemptsLatencyAndConsumedCapacity() async throws {
        try await withFakeServer([
            .error(500, "InternalServerError", "try again"),
            .ok(#"{"Attributes":{},"ConsumedCapacity":{"TableName":"t","CapacityUnits":2.0}}"#),
        ]) { server in
            let observer = Recorder(), log = LogRecorder()
            let client = try client(server, observer: observer, log: log)
            _ = try await client.updateItem(UpdateItemInput(tableName: "t", key: ["id": .s("1")]), update: .set("n", .add(1)))
            let report = try #require(observer.recorded.first)
            #expect(observer.recorded.count == 1)
            #expect(report.operation == "UpdateItem")
            #expect(report.attempts == 2)
            #expect(report.duration >= .zero)
            #expect(report.totalCapacityUnits == 2.0)
            #expect(report.consumedCapacity.first?.tableName == "t")
            #expect(report.errorCode == nil)
            let line = try #require(log.recorded.first { $0.message == "DynamoClient operation" })
            #expect(line.level == .debug)
            #expect(line.metadata["operation"] == "UpdateItem")
            #expect(line.metadata["attempts"] == "2")
            #expect(line.metadata["consumedCapacity"] == "2.0")
            #expect(line.metadata["latencyMs"].flatMap(Double.init) != nil)
        }
    }

    @Test func reportsFailuresWithTheirCode() async throws {
        try await withFakeServer([.error(400, "ConditionalCheckFailedException", "The conditional request failed")]) { server in
            let observer = Recorder(), log = LogRecorder()
            let client = try client(server, observer: observer, log: log)
            await #expect(throws: DynamoError.self) {
                try await client.putItem(PutItemInput(tableName: "t", item: ["id": .s("1")]), condition: .attributeNotExists("id"))
            }
            #expect(observer.recorded.map(\.errorCode) == ["ConditionalCheckFailedException"])
            #expect(observer.recorded.map(\.attempts) == [1])
            #expect(log.recorded.contains { $0.message == "DynamoClient operation" && $0.metadata["errorCode"] == "ConditionalCheckFailedException" })
        }
    }

    @Test func batchCapacityIsAList() {
        let json = try! JSONValue(
            parsing: Array(#"{"ConsumedCapacity":[{"TableName":"a","CapacityUnits":1.5},{"TableName":"b","CapacityUnits":2.5}]}"#.utf8))
        #expect(DynamoClient.consumedCapacity(in: json).compactMap(\.capacityUnits) == [1.5, 2.5])
        #expect(DynamoClient.consumedCapacity(in: nil).isEmpty)
    }
}
