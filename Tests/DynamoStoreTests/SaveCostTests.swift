import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Synchronization
import Testing

/// What a save costs in requests and write units, as a client observer sees it from the
/// `ConsumedCapacity` (TOTAL) every store write asks for. The store bench reports the same
/// numbers; here they are exact.
@Suite struct SaveCostTests {
    /// Write requests and their units, as the client reported them.
    final class WriteMeter: DynamoClientObserver {
        private let writes = Mutex<[(operation: String, units: Double?)]>([])

        func operationDidFinish(_ report: OperationReport) {
            guard report.operation != "DescribeTable", report.operation != "CreateTable" else { return }
            writes.withLock { $0.append((report.operation, report.totalCapacityUnits)) }
        }

        /// The operations and the units they consumed during `body`.
        func measure(_ body: () async throws -> Void) async rethrows -> (operations: [String], units: Double) {
            writes.withLock { $0 = [] }
            try await body()
            let done = writes.withLock { $0 }
            return (done.map(\.operation), done.compactMap(\.units).reduce(0, +))
        }
    }

    @Test func aSingleObjectSaveIsOneRequestAndSeveralAreTransactionsAtTwiceTheUnits() async throws {
        try await withTestServer { endpoint in
            var configuration = DynamoClient.Configuration(
                region: "us-east-1", endpoint: endpoint.url,
                credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
            let meter = WriteMeter()
            configuration.observer = meter
            configuration.transport = endpoint.transport
            let store = try DynamoStore(types: Models.types, client: try DynamoClient(configuration: configuration))
            try await store.createTables(pollInterval: .milliseconds(10))
            let context = ObjectContext(store: store)

            let tag = context.newTag(1, "one")
            let insert = try await meter.measure { try await context.save() }
            #expect(insert.operations == ["PutItem"] && insert.units == 1)

            tag.label = "changed"
            let update = try await meter.measure { try await context.save() }
            #expect(update.operations == ["UpdateItem"] && update.units == 1)

            for id in 2...151 { _ = context.newTag(Int64(id)) }
            let batch = try await meter.measure { try await context.save() }
            #expect(batch.operations == ["TransactWriteItems", "TransactWriteItems"])
            #expect(batch.units == 300, "a transactional write costs two units per item of up to 1 KB")

            context.delete(tag)
            let delete = try await meter.measure { try await context.save() }
            #expect(delete.operations == ["DeleteItem"] && delete.units == 1)
        }
    }
}
