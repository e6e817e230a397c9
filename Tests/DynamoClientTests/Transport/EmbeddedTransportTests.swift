import DynamoAPI
import DynamoClient
@testable import DynamoEmbedded
import DynamoServer
import DynamoTestSupport
import Foundation
import Testing

/// The in-process transport answers as the socket does: the same status, body bytes and
/// headers for valid and broken requests alike, the admin API, the signature checks of
/// `--require-auth`, and concurrent writes.
struct EmbeddedTransportTests {
    static let authorization =
        "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, "
        + "SignedHeaders=host;x-amz-date, Signature=0123456789abcdef"

    /// A request of `target` with `body`, shaped as a DynamoDB call unless a flag says otherwise.
    struct Call {
        var method = "POST"
        var path = "/"
        var target: String? = "DynamoDB_20120810.GetItem"
        var contentType: String? = "application/x-amz-json-1.0"
        var signed = true
        var body: String
        /// One server answers it byte for byte again: it returns stored item bytes only (a
        /// projection, a `LastEvaluatedKey`, an UpdateItem's attributes are dictionaries encoded
        /// anew for each answer, in an order that may differ from one answer to the next).
        var byteStable = false

        func request(to url: String) -> HTTPRequest {
            var headers: [(name: String, value: String)] = []
            if let target { headers.append(("X-Amz-Target", target)) }
            if let contentType { headers.append(("Content-Type", contentType)) }
            if signed {
                headers.append(("X-Amz-Date", "20260101T000000Z"))
                headers.append(("Authorization", EmbeddedTransportTests.authorization))
            }
            return HTTPRequest(method: method, url: url + path, headers: headers, body: Array(body.utf8))
        }
    }

    static func operation(_ name: String, _ body: String) -> Call {
        Call(target: "DynamoDB_20120810.\(name)", body: body)
    }

    static let table = operation(
        "CreateTable",
        #"{"TableName":"Tab","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},"#
            + #"{"AttributeName":"sk","AttributeType":"N"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},"#
            + #"{"AttributeName":"sk","KeyType":"RANGE"}]}"#)

    /// One random call: an item operation on a few keys (conditions that fail among them), or a
    /// request broken in one of the ways DynamoDB's wire checks answer.
    static func randomCall(_ random: inout SeededRandom) -> Call {
        let key = #""Key":{"pk":{"S":"p\#(random.int(0..<4))"},"sk":{"N":"\#(random.int(0..<3))"}}"#
        let capacity = random.chance(50) ? #","ReturnConsumedCapacity":"TOTAL""# : ""
        let value = random.chance(50) ? #"{"S":"\#(String(repeating: "v", count: random.int(0..<40)))"}"# : #"{"N":"\#(random.int(-99..<99))"}"#
        var valid: Call
        switch random.int(0..<7) {
        case 0:
            let condition = random.chance(30) ? #","ConditionExpression":"attribute_not_exists(pk)""# : ""
            let item = #""Item":{"pk":{"S":"p\#(random.int(0..<4))"},"sk":{"N":"\#(random.int(0..<3))"},"v":\#(value)}"#
            valid = operation("PutItem", #"{"TableName":"Tab",\#(item)\#(condition),"ReturnValues":"ALL_OLD"\#(capacity)}"#)
        case 1:
            let projection = random.chance(30) ? #","ProjectionExpression":"sk, v""# : ""
            valid = operation("GetItem", #"{"TableName":"Tab",\#(key),"ConsistentRead":\#(random.chance(50))\#(projection)\#(capacity)}"#)
            valid.byteStable = projection.isEmpty
        case 2:
            valid = operation(
                "UpdateItem",
                #"{"TableName":"Tab",\#(key),"UpdateExpression":"SET v = :v ADD n :one","#
                    + #""ExpressionAttributeValues":{":v":\#(value),":one":{"N":"1"}},"ReturnValues":"ALL_NEW"\#(capacity)}"#)
        case 3:
            valid = operation("DeleteItem", #"{"TableName":"Tab",\#(key),"ReturnValues":"ALL_OLD"}"#)
        case 4:
            valid = operation(
                "Query",
                #"{"TableName":"Tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p\#(random.int(0..<4))"}},"#
                    + #""ScanIndexForward":\#(random.chance(50)),"Limit":\#(random.int(1..<4))\#(capacity)}"#)
        case 5:
            valid = operation("Scan", #"{"TableName":"Tab","Limit":\#(random.int(1..<6))}"#)
        default:
            valid = operation("BatchGetItem", #"{"RequestItems":{"Tab":{"Keys":[{\#(key.dropFirst(6))]}}}"#)
            valid.byteStable = true
        }
        guard random.chance(35) else { return valid }
        var broken = valid
        switch random.int(0..<10) {
        case 0: broken.body = String(valid.body.prefix(random.int(1..<valid.body.count))) // not JSON
        case 1: broken.body = random.pick(["[]", "null", "", "1", #""x""#])
        case 2: broken.target = random.pick(["DynamoDB_20120810.Nope", "Dynamo.GetItem", "DynamoDB_20120810."])
        case 3: broken.target = nil
        case 4: broken.signed = false
        case 5: broken.contentType = random.pick(["text/plain", "application/x-amz-json-1.1", "application/json"])
        case 6:
            // A GET carries no body (URLSession sends none): `GET /` is DynamoDB's health answer.
            broken.method = random.pick(["GET", "PUT", "DELETE"])
            if broken.method == "GET" { broken.body = "" }
        case 7: broken.body = valid.body.replacingOccurrences(of: #""TableName":"Tab""#, with: #""TableName":"Missing""#)
        case 8: broken.body = valid.body.replacingOccurrences(of: #""pk""#, with: #""pk2""#)
        default: broken.body = valid.body.replacingOccurrences(of: #"{"N":"#, with: #"{"N":"x"#)
        }
        return broken
    }

    /// The answers two transports gave to one call agree: status, the headers that do not
    /// vary per answer, and each CRC true to its own body.
    static func expectAlike(_ answered: HTTPResponse, _ expected: HTTPResponse, _ context: String) {
        #expect(answered.status == expected.status, "\(context)")
        for name in ["content-type", "content-encoding", "server"] {
            #expect(answered.header(name) == expected.header(name), "\(name); \(context)")
        }
        #expect(answered.header("x-amz-crc32") == String(CRC32.checksum(answered.body)), "\(context)")
        #expect(answered.header("x-amzn-requestid")?.utf8.count == 52, "\(context)")
        #expect(answered.header("date") != nil, "\(context)")
    }

    /// A seeded run of calls, each sent to two servers kept in the same state, one over the
    /// socket and one in process: the same answers (the same JSON). A call that changes
    /// nothing and whose answer is stable (any call refused, ``Call/byteStable`` reads) is sent
    /// over the socket to the in-process server too, whose answer is then the same byte for
    /// byte, CRC included.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func answersAsTheSocketDoes(seed: UInt64) async throws {
        try await withTestServer { first in
            try await withTestServer { second in
                let (socket, embedded) = (first.socketTransport, EmbeddedTransport(server: second.server))
                for (transport, url) in [(socket, first.url), (embedded, "http://embedded")] as [(any HTTPTransport, String)] {
                    let created = try await transport.send(Self.table.request(to: url), timeouts: HTTPTimeouts())
                    #expect(created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")
                }
                var random = SeededRandom(seed: seed)
                var statuses: [Int: Int] = [:]
                var comparedBytes = 0
                for step in 0..<120 {
                    let call = Self.randomCall(&random)
                    let expected = try await socket.send(call.request(to: first.url), timeouts: HTTPTimeouts())
                    let answered = try await embedded.send(call.request(to: "http://embedded"), timeouts: HTTPTimeouts())
                    let context = "seed \(seed), step \(step): \(call.method) \(call.target ?? "-") \(call.body)"
                    statuses[answered.status, default: 0] += 1
                    Self.expectAlike(answered, expected, context)
                    if let mine = try? JSONValue(parsing: answered.body), let theirs = try? JSONValue(parsing: expected.body) {
                        #expect(mine == theirs, "\(context)")
                    } else {
                        #expect(answered.body == expected.body, "\(context)")
                    }
                    if answered.status != 200 || call.byteStable {
                        let again = try await socket.send(call.request(to: second.url), timeouts: HTTPTimeouts())
                        #expect(String(decoding: answered.body, as: UTF8.self) == String(decoding: again.body, as: UTF8.self), "\(context)")
                        #expect(answered.header("x-amz-crc32") == again.header("x-amz-crc32"), "\(context)")
                        comparedBytes += 1
                    }
                }
                // Most calls are valid ones; the broken ones meet several of the checks.
                #expect(statuses[200, default: 0] >= 50)
                #expect(statuses.keys.filter { $0 >= 400 }.count >= 2)
                #expect(comparedBytes >= 40)
            }
        }
    }

    @Test func largeAnswersAreCompressedOnlyWhenAsked() async throws {
        try await withEmbeddedEngine { engine in
            let client = engine.client()
            _ = try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)], tableName: "Big",
                    keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)], billingMode: .payPerRequest))
            _ = try await client.putItem(
                PutItemInput(tableName: "Big", item: ["id": .s("1"), "text": .s(String(repeating: "x", count: 10_000))]))
            var call = Self.operation("GetItem", #"{"TableName":"Big","Key":{"id":{"S":"1"}}}"#)
            let plain = try await engine.transport.send(call.request(to: "http://embedded"), timeouts: HTTPTimeouts())
            #expect(plain.header("content-encoding") == nil)
            #expect(plain.body.count > 10_000)
            call.body = #"{"TableName":"Big","Key":{"id":{"S":"1"}}}"#
            var request = call.request(to: "http://embedded")
            request.headers.append(("Accept-Encoding", "gzip"))
            let compressed = try await engine.transport.send(request, timeouts: HTTPTimeouts())
            #expect(compressed.header("content-encoding") == "gzip")
            #expect(compressed.body.count < 1_000)
            #expect(compressed.header("x-amz-crc32") == String(CRC32.checksum(compressed.body)))
        }
    }

    @Test func anEngineWithoutASocketAnswersTheClientAndTheAdminAPI() async throws {
        try await withEmbeddedEngine { engine in
            let client = engine.client()
            let missing = await #expect(throws: DynamoError.self) {
                try await client.describeTable(DescribeTableInput(tableName: "Nope"))
            }
            #expect(missing?.code == .resourceNotFound)
            #expect(missing?.message == "Requested resource not found: Table: Nope not found")
            #expect(missing?.response?.requestID?.utf8.count == 52)

            func offset(_ response: HTTPResponse) throws -> Double {
                guard case .number(let text) = try JSONValue(parsing: response.body).objectValue?["offsetSeconds"] else {
                    throw DynamoClientError.unexpectedResponse(status: response.status, requestID: nil, body: "no offsetSeconds")
                }
                return try #require(Double(text))
            }
            let before = try await engine.transport.send(
                HTTPRequest(method: "GET", url: "http://embedded/_localdynamo/clock"), timeouts: HTTPTimeouts())
            let moved = try await engine.transport.send(
                HTTPRequest(method: "POST", url: "http://embedded/_localdynamo/clock", body: Array(#"{"advanceSeconds":3600}"#.utf8)),
                timeouts: HTTPTimeouts())
            #expect(moved.status == 200)
            #expect(abs(try offset(moved) - offset(before) - 3600) < 0.001)
            let unknown = try await engine.transport.send(
                HTTPRequest(method: "GET", url: "http://embedded/_localdynamo/nowhere"), timeouts: HTTPTimeouts())
            #expect(unknown.status == 404)
            let health = try await engine.transport.send(HTTPRequest(method: "GET", url: "http://embedded"), timeouts: HTTPTimeouts())
            #expect(String(decoding: health.body, as: UTF8.self) == "healthy: dynamodb.us-east-1.amazonaws.com ")
        }
    }

    @Test func requireAuthVerifiesInProcessSignaturesToo() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString)").path
        try "[tests]\naws_access_key_id = AKIDTEST\naws_secret_access_key = secret\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = LocalDynamoServer.Configuration()
        configuration.credentialsFile = path
        try await withEmbeddedEngine(configuration: configuration) { engine in
            func client(secret: String) throws -> DynamoClient {
                var settings = DynamoClient.Configuration(
                    region: "us-east-1", endpoint: "http://embedded/",
                    credentials: AWSCredentials(accessKeyID: "AKIDTEST", secretAccessKey: secret))
                settings.transport = engine.transport
                settings.sources = ConfigurationSources(environment: [:])
                settings.retry = .disabled
                return try DynamoClient(configuration: settings)
            }
            let listed = try await client(secret: "secret").listTables(ListTablesInput())
            #expect(listed.tableNames == [])
            let refused = await #expect(throws: DynamoError.self) { try await client(secret: "wrong").listTables(ListTablesInput()) }
            #expect(refused?.code == .invalidSignature)
            // The default client's dummy credentials are not among the server's identities.
            let unknown = await #expect(throws: DynamoError.self) { try await engine.client().listTables(ListTablesInput()) }
            #expect(unknown?.code == .unrecognizedClient)
        }
    }

    /// Writes to a file-backed engine from many tasks at once go through the writer thread
    /// (joined to its group commits when it is busy) and every one is stored.
    @Test func concurrentWritesToFilesAreAllStored() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = LocalDynamoServer.Configuration()
        configuration.dataDirectory = directory.path
        try await withEmbeddedEngine(configuration: configuration) { engine in
            let client = engine.client()
            _ = try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [AttributeDefinition(attributeName: "id", attributeType: .s)], tableName: "Log",
                    keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)], billingMode: .payPerRequest))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        _ = try await client.putItem(PutItemInput(tableName: "Log", item: ["id": .s("e\(index)"), "n": .n(DynamoNumber(index))]))
                    }
                }
                try await group.waitForAll()
            }
            let scanned = try await client.scan(ScanInput(tableName: "Log", select: .count, consistentRead: true))
            #expect(scanned.count == 200)
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8000/", "/"),
        ("http://127.0.0.1:8000", "/"),
        ("https://h/_localdynamo/clock?x=1&y", "/_localdynamo/clock?x=1&y"),
        ("http://h?x=1", "/?x=1"),
        ("http://h:1/a/b/", "/a/b/"),
        ("/metrics", "/metrics"),
        ("", "/"),
    ])
    func requestTargetIsThePathAndQuery(url: String, target: String) {
        #expect(EmbeddedTransport.requestTarget(of: url) == target)
    }
}
