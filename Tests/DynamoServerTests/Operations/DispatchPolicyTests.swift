import DynamoAPI
import DynamoEngine
@testable import DynamoServer
import Dispatch
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
import NIOCore
import NIOPosix
import Testing

/// `DispatchPolicy` as the server follows it: item writes wait for the namespace's writer, never
/// on the connection's event loop, so a write held up does not hold up a read on that loop.
@Suite struct DispatchPolicyTests {
    static func request(_ operation: String, _ body: String) -> String {
        TestRequest.make(target: "DynamoDB_20120810.\(operation)", body: body)
    }

    static func send(_ operation: String, _ body: String, port: Int) async throws -> TestHTTPResponse {
        let client = try TestHTTPClient(port: port)
        try await client.send(request(operation, body))
        return try await client.readResponse()
    }

    @Test func everyItemWriteGoesToTheWriterAndNoWriteRunsOnTheLoop() {
        for name in EngineDispatcher.operations.keys {
            let placement = DispatchPolicy.placement(of: DynamoTarget(service: .dynamoDB, operation: name))
            let writes = ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"].contains(name)
            #expect((placement == .writer) == writes, "\(name)")
        }
        for name in EngineDispatcher.streamsOperations.keys {
            #expect(DispatchPolicy.placement(of: DynamoTarget(service: .dynamoDBStreams, operation: name)) == .pool)
        }
    }

    /// One event loop serves both connections. The writer's lock is held (as by an index-build
    /// chunk or a checkpoint) until a GetItem and a DescribeTable have been answered: the
    /// PutItem is provably still waiting then, and is answered once the lock is let go.
    @Test func aHeldWriteDoesNotDelayAGetItemOnTheSameLoop() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .perRegion, logger: Logger(label: "test"))
        defer { engine.close() }
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.eventLoopGroup = loop
        let dispatcher = EngineDispatcher(engine: engine, threadPool: pool, logger: Logger(label: "test"))
        try await withHTTPTestServer(configuration, dispatcher: dispatcher) { _, port in
            let created = try await Self.send(
                "CreateTable",
                """
                {"TableName":"Things","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
                 "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}
                """, port: port)
            #expect(created.status == 200, "\(created.text)")
            let database = try engine.database(accessKeyID: "AKIDEXAMPLE", region: "eu-west-1")
            let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            DispatchQueue(label: "holder").async {
                database.holdingWriterLock {
                    holding.signal()
                    release.wait()
                }
            }
            holding.wait()
            var released = false
            defer { if !released { release.signal() } }

            let writer = try TestHTTPClient(port: port)
            try await writer.send(Self.request("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"k"}}}"#))
            // The PutItem reached the writer (it waits there for the lock).
            for _ in 0..<10_000 where database.writesInFlight == 0 { try await Task.sleep(for: .milliseconds(1)) }
            #expect(database.writesInFlight == 1)

            let read = try await Self.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"k"}}}"#, port: port)
            #expect(read.status == 200)
            #expect(read.text == "{}")
            #expect(database.writesInFlight == 1) // answered while the write was still held

            // DescribeTable answers from the published catalog and statistics: no writer lock.
            let described = try await Self.send("DescribeTable", #"{"TableName":"Things"}"#, port: port)
            #expect(described.status == 200)
            #expect(described.text.contains(#""ItemCount":0"#), "\(described.text)")
            #expect(database.writesInFlight == 1)

            release.signal()
            released = true
            let written = try await writer.readResponse()
            #expect(written.status == 200)
            let after = try await Self.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"k"}}}"#, port: port)
            #expect(after.text == #"{"Item":{"pk":{"S":"k"}}}"#)
        }
        try await pool.shutdownGracefully()
        try await loop.shutdownGracefully()
    }
}
