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

/// `DispatchPolicy` as the server follows it: an item write to a file that finds the writer busy
/// waits for it, never on the connection's event loop, so a write held up does not hold up a
/// read on that loop; in memory item writes run on the loop like reads.
@Suite struct DispatchPolicyTests {
    static func request(_ operation: String, _ body: String) -> String {
        TestRequest.make(target: "DynamoDB_20120810.\(operation)", body: body)
    }

    static func send(_ operation: String, _ body: String, port: Int) async throws -> TestHTTPResponse {
        let client = try TestHTTPClient(port: port)
        try await client.send(request(operation, body))
        return try await client.readResponse()
    }

    /// Creates the table `Things` (partition key `pk`, a string) over HTTP.
    static func createThings(port: Int) async throws {
        let created = try await send(
            "CreateTable",
            """
            {"TableName":"Things","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
             "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}
            """, port: port)
        #expect(created.status == 200, "\(created.text)")
    }

    /// Serves `engine` on port 0 with one event loop (so every connection shares it) and a
    /// two-thread pool while `body` runs.
    static func serve(_ engine: DynamoEngine, _ body: (Int) async throws -> Void) async throws {
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.eventLoopGroup = loop
        let dispatcher = EngineDispatcher(engine: engine, threadPool: pool, logger: Logger(label: "test"))
        try await withHTTPTestServer(configuration, dispatcher: dispatcher) { _, port in try await body(port) }
        try await pool.shutdownGracefully()
        try await loop.shutdownGracefully()
    }

    /// A row's placement, whatever its types.
    private struct PlacementOf: OperationRowVisitor {
        func visit<Input, Output>(_ row: OperationRow<Input, Output>) -> String {
            switch row.placement {
            case .fixed(let placement): "\(placement)"
            case .itemWrite: "itemWrite"
            case .decided: "decided"
            }
        }
    }

    /// The rows say where each operation runs: the five item writes where item writes go, the
    /// bounded reads and catalog lookups on the loop, two decided per request, the rest (and
    /// every DynamoDB Streams operation) on the pool.
    @Test func everyRowPlacesItsOperation() {
        var byPlacement: [String: Set<String>] = [:]
        for operation in DynamoOperation.allCases {
            byPlacement[operation.withRow(PlacementOf()), default: []].insert(operation.rawValue)
        }
        #expect(byPlacement["itemWrite"] == ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"])
        #expect(
            byPlacement["eventLoop"] == [
                "GetItem", "BatchGetItem", "TransactGetItems", "Query", "ListTables", "DescribeTimeToLive",
                "ListTagsOfResource", "DescribeEndpoints", "DescribeLimits", "DescribeContinuousBackups",
            ])
        #expect(byPlacement["decided"] == ["DescribeTable", "ExecuteStatement"])
        #expect(byPlacement["writer"] == nil)
        #expect(byPlacement.values.reduce(0) { $0 + $1.count } == DynamoOperation.allCases.count)
        for operation in DynamoStreamsOperation.allCases {
            #expect(operation.withRow(PlacementOf()) == "pool", "\(operation)")
        }
    }

    /// Only item writes move with the storage: on the loop in memory, on the loop while the
    /// writer is idle for files with `--sync normal`, always on the writer with `--sync full`.
    @Test func itemWritesMoveWithTheStorage() {
        #expect(DispatchPolicy.Storage.memory.itemWritePlacement == .eventLoop)
        #expect(DispatchPolicy.Storage.files.itemWritePlacement == .eventLoopIfWriterIdle)
        #expect(DispatchPolicy.Storage.syncedFiles.itemWritePlacement == .writer)
    }

    /// An ExecuteStatement is placed from its statement and the table's key schema before it
    /// runs: a SELECT of one item by its whole key on the loop, anything else on the pool.
    @Test func aStatementIsPlacedByWhatItReads() throws {
        let engine = try DynamoEngine(storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"))
        defer { engine.close() }
        let database = try engine.database(accessKeyID: nil, region: "us-east-1")
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S"))],
                tableName: "Things", keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)],
                billingMode: .init(rawValue: "PAY_PER_REQUEST")), now: 1_700_000_000)
        let loop = [
            #"SELECT * FROM "Things" WHERE pk = 'a'"#, "SELECT n FROM Things WHERE pk = ?", "SELECT * FROM Things WHERE pk = 'a' AND n = 1",
        ]
        let pool = [
            "SELECT * FROM Things", "SELECT * FROM Things WHERE n = 1", "INSERT INTO Things VALUE {'pk': 'b'}",
            "DELETE FROM Things WHERE pk = 'a'", "SELECT * FROM Missing WHERE pk = 'a'", "SELECT * FROM",
        ]
        for (statements, expected) in [(loop, DispatchPolicy.Placement.eventLoop), (pool, .pool)] {
            for statement in statements {
                let input = ExecuteStatementInput(statement: statement, parameters: statement.contains("?") ? [.s("a")] : nil)
                guard case .decided(let decide) = OperationRows.executeStatement.placement else {
                    Issue.record("ExecuteStatement's placement is not decided per request")
                    return
                }
                #expect(decide(input, database) == expected, "\(statement)")
            }
        }
        // A next page is never on the loop.
        var paged = ExecuteStatementInput(statement: "SELECT * FROM Things WHERE pk = 'a'")
        paged.nextToken = "x"
        #expect(database.readsOneItemByKey(paged) == false)
    }

    /// Every kind of item write over HTTP, one at a time, in memory, on files and on synced
    /// files: the same answers and items; only with `--sync full` did they go through the
    /// writer thread (elsewhere the writer was idle each time, so the loop ran them).
    @Test(arguments: [DispatchPolicy.Storage.memory, .files, .syncedFiles])
    func itemWritesReachTheWriterThreadOnlyWhenSynced(storage: DispatchPolicy.Storage) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = try DynamoEngine(
            storage: storage == .memory ? .inMemory : .directory(directory), namespaceMode: .perRegion,
            logger: Logger(label: "test"), syncMode: storage == .syncedFiles ? .full : .normal)
        defer { engine.close() }
        try await Self.serve(engine) { port in
            try await Self.createThings(port: port)
            let writes: [(String, String)] = [
                ("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"a"},"n":{"N":"1"}}}"#),
                ("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"gone"}}}"#),
                (
                    "UpdateItem",
                    #"{"TableName":"Things","Key":{"pk":{"S":"a"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}"#
                ),
                ("DeleteItem", #"{"TableName":"Things","Key":{"pk":{"S":"gone"}}}"#),
                ("BatchWriteItem", #"{"RequestItems":{"Things":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}}]}}"#),
                ("TransactWriteItems", #"{"TransactItems":[{"Put":{"TableName":"Things","Item":{"pk":{"S":"c"}}}}]}"#),
            ]
            for (operation, body) in writes {
                let answer = try await Self.send(operation, body, port: port)
                #expect(answer.status == 200, "\(operation): \(answer.text)")
            }
            let failed = try await Self.send(
                "PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)"}"#,
                port: port)
            #expect(failed.status == 400)
            #expect(failed.text.contains("ConditionalCheckFailedException"), "\(failed.text)")
            let scanned = try await Self.send("Scan", #"{"TableName":"Things","Select":"COUNT"}"#, port: port)
            #expect(scanned.text.contains(#""Count":3"#), "\(scanned.text)")
            let read = try await Self.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"a"}}}"#, port: port)
            #expect(read.text.contains(#""n":{"N":"2"}"#), "\(read.text)")
            let database = try engine.database(accessKeyID: "AKIDEXAMPLE", region: "eu-west-1")
            #expect(database.writeGroupsRun == (storage == .syncedFiles ? writes.count + 1 : 0))
        }
    }

    /// Serves a database on files whose writer's lock is held (as by an index-build chunk or a
    /// checkpoint) with a PutItem of `k` waiting for it on a connection of its own: `body` gets
    /// the port, the database, that connection, and the function that lets the lock go.
    static func withAWriteHeld(
        syncMode: SyncMode = .normal, _ body: (Int, Database, TestHTTPClient, () -> Void) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = try DynamoEngine(
            storage: .directory(directory), namespaceMode: .perRegion, logger: Logger(label: "test"), syncMode: syncMode)
        defer { engine.close() }
        try await Self.serve(engine) { port in
            try await Self.createThings(port: port)
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
            try await body(port, database, writer) {
                released = true
                release.signal()
            }
        }
    }

    /// One event loop serves both connections. The writer's lock is held until a GetItem and a
    /// DescribeTable have been answered: the PutItem is provably still waiting then, and is
    /// answered once the lock is let go.
    @Test func aHeldWriteDoesNotDelayAGetItemOnTheSameLoop() async throws {
        try await Self.withAWriteHeld { port, database, writer, letGo in
            let read = try await Self.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"k"}}}"#, port: port)
            #expect(read.status == 200)
            #expect(read.text == "{}")
            #expect(database.writesInFlight == 1) // answered while the write was still held

            // DescribeTable answers from the published catalog and statistics: no writer lock.
            let described = try await Self.send("DescribeTable", #"{"TableName":"Things"}"#, port: port)
            #expect(described.status == 200)
            #expect(described.text.contains(#""ItemCount":0"#), "\(described.text)")
            #expect(database.writesInFlight == 1)

            letGo()
            let written = try await writer.readResponse()
            #expect(written.status == 200)
            let after = try await Self.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"k"}}}"#, port: port)
            #expect(after.text == #"{"Item":{"pk":{"S":"k"}}}"#)
        }
    }

    /// Nothing but the engine call runs under the writer's lock: with the lock held and every
    /// item write going to the writer thread (`--sync full`), a PutItem whose body does not
    /// decode is answered at once (it never reaches the writer), and a GetItem is decoded, read
    /// and encoded, while a valid PutItem waits there.
    @Test func decodingAndEncodingNeverWaitForTheWritersLock() async throws {
        try await Self.withAWriteHeld(syncMode: .full) { port, database, writer, letGo in
            for body in [#"{"TableName":"Things","Item":{"pk":{"Q":"k"}}}"#, #"{"TableName":"Things"}"#, #"{"Item":7}"#] {
                let refused = try await Self.send("PutItem", body, port: port)
                #expect(refused.status == 400, "\(body): \(refused.text)")
                #expect(refused.text.contains("ValidationException") || refused.text.contains("SerializationException"), "\(refused.text)")
            }
            let read = try await Self.send(
                "GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"k"}},"ReturnConsumedCapacity":"TOTAL"}"#, port: port)
            #expect(read.text == #"{"ConsumedCapacity":{"TableName":"Things","CapacityUnits":0.5}}"#)
            #expect(database.writesInFlight == 1) // answered while the valid write was still held
            letGo()
            #expect(try await writer.readResponse().status == 200)
        }
    }

    /// A database opened again counts no rows: the first DescribeTable of a table, which finds
    /// its statistics not counted, is placed on the pool (which counts them) and answered with
    /// exact counts; later ones answer from memory on the loop.
    @Test func firstDescribeAfterOpenIsHandedToThePool() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .perRegion, logger: Logger(label: "test"))
            defer { engine.close() }
            let database = try engine.database(accessKeyID: "AKIDEXAMPLE", region: "eu-west-1")
            _ = try database.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S"))],
                    tableName: "Things", keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)],
                    billingMode: .init(rawValue: "PAY_PER_REQUEST")), now: 1_700_000_000)
            for index in 0..<20 {
                _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("k\(index)")]))
            }
        }
        let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .perRegion, logger: Logger(label: "test"))
        defer { engine.close() }
        try await Self.serve(engine) { port in
            for _ in 0..<2 {
                let described = try await Self.send("DescribeTable", #"{"TableName":"Things"}"#, port: port)
                #expect(described.status == 200, "\(described.text)")
                #expect(described.text.contains(#""ItemCount":20"#), "\(described.text)")
            }
        }
    }
}
