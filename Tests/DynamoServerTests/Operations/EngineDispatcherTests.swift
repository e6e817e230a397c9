import DynamoAPI
import DynamoEngine
@testable import DynamoServer
import Logging
import NIOPosix
import Testing

/// The operation table driven without a socket: request bodies in, the bytes the server would
/// write out (or the error it would answer), through `EngineDispatcher.dispatch`.
@Suite struct EngineDispatcherTests {
    /// An in-memory engine, a small pool and the dispatcher over them; shut down by `close()`.
    final class Harness {
        let engine: DynamoEngine
        let pool: NIOThreadPool
        let dispatcher: EngineDispatcher

        init() throws {
            engine = try DynamoEngine(storage: .inMemory, namespaceMode: .perRegion, logger: Logger(label: "test"))
            pool = NIOThreadPool(numberOfThreads: 2)
            pool.start()
            dispatcher = EngineDispatcher(engine: engine, threadPool: pool, logger: Logger(label: "test"))
        }

        func close() throws {
            try pool.syncShutdownGracefully()
            engine.close()
        }

        /// Dispatches `body` to `operation` as an unsigned-but-scoped request of one access key.
        func call(
            _ operation: String, _ body: String, service: DynamoTarget.Service = .dynamoDB
        ) async throws -> DynamoResult {
            let context = DynamoRequestContext(
                requestID: String(repeating: "A", count: 52), accessKeyID: "dispatcher", region: "us-east-1",
                headers: DynamoHeaders())
            return await dispatcher.dispatch(
                DynamoTarget(service: service, operation: operation), body: DynamoRequestBody(json: try JSONValue(parsing: body)), context: context)
        }

        /// The answer of a call that must succeed, parsed.
        func success(_ operation: String, _ body: String) async throws -> JSONValue {
            switch try await call(operation, body) {
            case .success(let bytes): return try JSONValue(parsing: bytes)
            case .failure(let error):
                Issue.record("\(operation) failed: \(error.code) \(error.message ?? "")")
                return .null
            }
        }

        /// The error of a call that must fail.
        func failure(_ operation: String, _ body: String, service: DynamoTarget.Service = .dynamoDB) async throws -> DynamoError? {
            switch try await call(operation, body, service: service) {
            case .success(let bytes):
                Issue.record("\(operation) succeeded: \(String(decoding: bytes, as: UTF8.self))")
                return nil
            case .failure(let error): return error
            }
        }
    }

    static let createThings = """
        {"TableName":"Things","BillingMode":"PAY_PER_REQUEST",
         "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
         "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}
        """

    @Test func anItemLifeCycleAnswersTheServiceShapes() async throws {
        let harness = try Harness()
        defer { try? harness.close() }
        let created = try await harness.success("CreateTable", Self.createThings)
        #expect(created["TableDescription"]?["TableName"] == .string("Things"))
        #expect(created["TableDescription"]?["TableStatus"] != nil)

        for sk in 1...3 {
            _ = try await harness.success(
                "PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"a"},"sk":{"N":"\#(sk)"},"n":{"N":"\#(sk * 10)"}}}"#)
        }
        let got = try await harness.success("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"a"},"sk":{"N":"2"}}}"#)
        #expect(got["Item"]?["n"] == .object(["N": .string("20")]))

        let queried = try await harness.success(
            "Query",
            #"{"TableName":"Things","KeyConditionExpression":"pk = :p AND sk > :s","ExpressionAttributeValues":{":p":{"S":"a"},":s":{"N":"1"}},"ScanIndexForward":false}"#
        )
        #expect(queried["Count"] == .number("2"))
        #expect(queried["ScannedCount"] == .number("2"))
        guard case .array(let items)? = queried["Items"] else {
            Issue.record("Query answered no Items")
            return
        }
        #expect(items.map { $0["sk"] } == [.object(["N": .string("3")]), .object(["N": .string("2")])])

        let updated = try await harness.success(
            "UpdateItem",
            #"{"TableName":"Things","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"5"}},"ReturnValues":"UPDATED_NEW"}"#
        )
        #expect(updated["Attributes"] == .object(["n": .object(["N": .string("15")])]))

        let deleted = try await harness.success(
            "DeleteItem", #"{"TableName":"Things","Key":{"pk":{"S":"a"},"sk":{"N":"3"}},"ReturnValues":"ALL_OLD"}"#)
        #expect(deleted["Attributes"]?["n"] == .object(["N": .string("30")]))
        let scanned = try await harness.success("Scan", #"{"TableName":"Things","Select":"COUNT"}"#)
        #expect(scanned["Count"] == .number("2"))
        #expect(scanned["Items"] == nil)
    }

    @Test func errorsCarryTheServiceTypeAndWords() async throws {
        let harness = try Harness()
        defer { try? harness.close() }
        _ = try await harness.success("CreateTable", Self.createThings)

        let missing = try await harness.failure("GetItem", #"{"TableName":"Nowhere","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}"#)
        #expect(missing?.code == .resourceNotFound)
        #expect(missing?.message == "Requested resource not found")

        let condition = try await harness.failure(
            "PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"a"},"sk":{"N":"1"}},"ConditionExpression":"attribute_exists(pk)"}"#)
        #expect(condition?.code == .conditionalCheckFailed)
        #expect(condition?.message == "The conditional request failed")

        let existing = try await harness.failure("CreateTable", Self.createThings)
        #expect(existing?.code == .resourceInUse)

        let unknown = try await harness.failure("DescribeEverything", "{}")
        #expect(unknown?.code == .unknownOperation)

        let stream = try await harness.failure(
            "DescribeStream", #"{"StreamArn":"not an arn"}"#, service: .dynamoDBStreams)
        #expect(stream?.code == .validation)
    }

    /// Every row of the table, given an empty object or a body of the wrong JSON types, answers
    /// a client error (4xx) of DynamoDB's vocabulary or succeeds; never a 500.
    @Test func everyOperationAnswersMalformedBodiesWithAClientError() async throws {
        let harness = try Harness()
        defer { try? harness.close() }
        _ = try await harness.success("CreateTable", Self.createThings)
        let bodies = [
            "{}", #"{"TableName":7}"#, #"{"TableName":"Things","Key":[],"Item":"x","Limit":-1}"#,
            #"{"TableName":"Things","RequestItems":{"Things":{}},"TransactItems":[{}],"Statement":""}"#,
        ]
        let targets =
            DynamoOperation.allCases.map { (DynamoTarget.Service.dynamoDB, $0.rawValue) }
            + DynamoStreamsOperation.allCases.map { (DynamoTarget.Service.dynamoDBStreams, $0.rawValue) }
        #expect(targets.count > 50)
        for (service, operation) in targets {
            for body in bodies {
                if case .failure(let error) = try await harness.call(operation, body, service: service) {
                    #expect(error.code.httpStatus == 400, "\(operation) \(body): \(error.code) \(error.message ?? "")")
                }
            }
        }
    }

    /// Seeded: random item operations on a few keys against a model dictionary; every answer the
    /// dispatcher gives matches the model, whichever order the operations come in.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomItemOperationsAgreeWithAModel(seed: UInt64) async throws {
        let harness = try Harness()
        defer { try? harness.close() }
        _ = try await harness.success("CreateTable", Self.createThings)
        var random = SplitMix64(seed: seed)
        var model: [Int: Int] = [:]
        for _ in 0..<200 {
            let sk = Int.random(in: 0..<8, using: &random)
            let key = #""Key":{"pk":{"S":"m"},"sk":{"N":"\#(sk)"}}"#
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let value = Int.random(in: 0..<1000, using: &random)
                _ = try await harness.success(
                    "PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"m"},"sk":{"N":"\#(sk)"},"v":{"N":"\#(value)"}}}"#)
                model[sk] = value
            case 1:
                let answer = try await harness.success("GetItem", #"{"TableName":"Things",\#(key),"ConsistentRead":true}"#)
                #expect(answer["Item"]?["v"] == model[sk].map { .object(["N": .string(String($0))]) })
            case 2:
                let result = try await harness.call(
                    "UpdateItem",
                    #"{"TableName":"Things",\#(key),"UpdateExpression":"SET v = v + :one","ConditionExpression":"attribute_exists(v)","ExpressionAttributeValues":{":one":{"N":"1"}}}"#
                )
                switch (result, model[sk]) {
                case (.success, let value?): model[sk] = value + 1
                case (.failure(let error), nil): #expect(error.code == .conditionalCheckFailed)
                default: Issue.record("UpdateItem of \(sk) disagreed with the model (\(String(describing: model[sk])))")
                }
            default:
                _ = try await harness.success("DeleteItem", #"{"TableName":"Things",\#(key)}"#)
                model[sk] = nil
            }
        }
        let counted = try await harness.success(
            "Query", #"{"TableName":"Things","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"m"}},"Select":"COUNT"}"#)
        #expect(counted["Count"] == .number(String(model.count)))
    }
}
