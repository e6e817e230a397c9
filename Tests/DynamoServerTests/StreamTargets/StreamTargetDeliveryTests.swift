import DynamoAPI
@testable import DynamoEngine
@testable import DynamoServer
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

/// A local HTTP endpoint standing in for a Lambda handler: records each POST body and answers
/// 500 to the first `failures` of them, 200 after.
final class RecordingEndpoint: Sendable {
    let bodies = Mutex<[[UInt8]]>([])
    let attempts = Mutex(0)
    let failures: Int
    private let channel: any Channel

    init(failures: Int) async throws {
        self.failures = failures
        let box = Box()
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(endpoint: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        box.endpoint.withLock { $0 = self }
    }

    var port: Int { channel.localAddress?.port ?? 0 }

    func close() async { try? await channel.close() }

    final class Box: Sendable {
        let endpoint = Mutex<RecordingEndpoint?>(nil)
    }

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let box: Box
        var body: [UInt8] = []

        init(endpoint: Box) { box = endpoint }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: body = []
            case .body(var buffer): body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let endpoint = box.endpoint.withLock({ $0 }) else { return }
                let attempt = endpoint.attempts.withLock { count -> Int in
                    count += 1; return count
                }
                let failing = attempt <= endpoint.failures
                if !failing { endpoint.bodies.withLock { $0.append(body) } }
                var head = HTTPResponseHead(version: .http1_1, status: failing ? .internalServerError : .ok)
                head.headers.add(name: "Content-Length", value: "0")
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

@Suite("Stream targets")
struct StreamTargetDeliveryTests {
    @Test("records reach a local endpoint as Lambda events, in order, after a failed delivery")
    func delivery() async throws {
        let endpoint = try await RecordingEndpoint(failures: 1)
        let engine = try DynamoEngine(storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"))
        let database = try engine.database(accessKeyID: nil, region: "us-east-1")
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S"))],
                tableName: "Orders", keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)],
                billingMode: .init(rawValue: "PAY_PER_REQUEST"),
                streamSpecification: StreamSpecification(streamEnabled: true, streamViewType: .newImage)), now: database.clock.now())
        for index in 0..<5 {
            _ = try database.putItem(PutItemInput(tableName: "Orders", item: ["pk": .s("o\(index)")]))
        }
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let target = try #require(StreamTarget(parsing: "Orders=http://127.0.0.1:\(endpoint.port)/events"))
        let delivery = StreamTargetDelivery(
            engine: engine, threadPool: pool, targets: [target], batchSize: 2,
            logger: Logger(label: "test"))
        delivery.start()
        // Wait (bounded) for the three batches: 2 + 2 + 1 records.
        for _ in 0..<300 where endpoint.bodies.withLock({ $0.count }) < 3 {
            try await Task.sleep(for: .milliseconds(20))
        }
        await delivery.stop()
        try await pool.shutdownGracefully()
        await endpoint.close()

        let events = try endpoint.bodies.withLock { $0 }.map { try JSONValue(parsing: $0) }
        #expect(endpoint.attempts.withLock { $0 } == 4)
        var keys: [String] = []
        for event in events {
            guard case .array(let records)? = event["Records"] else { Issue.record("no Records"); continue }
            #expect(records.count <= 2)
            for record in records {
                #expect(record["eventName"] == .string("INSERT"))
                #expect(record["eventSource"] == .string("aws:dynamodb"))
                if case .string(let arn)? = record["eventSourceARN"] {
                    #expect(arn.hasPrefix("arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/"))
                } else {
                    Issue.record("no eventSourceARN")
                }
                if case .string(let key)? = record["dynamodb"]?["Keys"]?["pk"]?["S"] { keys.append(key) }
            }
        }
        #expect(keys == (0..<5).map { "o\($0)" })
        #expect(StreamTarget(parsing: "Orders=https://x") == nil)
        #expect(StreamTarget(parsing: "=http://x") == nil)
        #expect(HTTPEndpoint("http://h:8080/p") == HTTPEndpoint("http://h:8080/p"))
    }
}
