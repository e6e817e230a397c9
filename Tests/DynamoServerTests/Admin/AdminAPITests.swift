import DynamoAPI
@testable import DynamoServer
import DynamoTestSupport
import DynamoEngine
import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing

/// The admin API under `/_localdynamo/`: JSON answers, the clock, and its refusals.
@Suite struct AdminAPITests {
    /// Sends one HTTP request and returns status and parsed JSON body.
    func request(_ method: String, _ path: String, body: String = "", port: Int) async throws -> (status: Int, json: JSONValue) {
        let client = try TestHTTPClient(port: port)
        try await client.send(
            """
            \(method) \(path) HTTP/1.1\r
            Host: 127.0.0.1\r
            Content-Type: application/json\r
            Content-Length: \(body.utf8.count)\r
            \r
            \(body)
            """)
        let response = try await client.readResponse()
        return (response.status, try JSONValue(parsing: response.body))
    }

    static func number(_ value: JSONValue?) -> Double? {
        if case .number(let text)? = value { return Double(text) }
        return nil
    }

    @Test func clockStartsWhereToldAndMovesForward() async throws {
        // The clock runs in real time from its start: bound each reading by the real time that
        // passed, however slow a loaded machine makes the test.
        let began = ContinuousClock.now
        func elapsed() -> Double { Double((ContinuousClock.now - began).components.seconds) + 1 }
        try await withTestServer(clockStart: 1_767_225_600) { endpoint in
            let read = try await request("GET", "/_localdynamo/clock", port: endpoint.port)
            #expect(read.status == 200)
            let start = try #require(Self.number(read.json["epochSeconds"]))
            let startOffset = try #require(Self.number(read.json["offsetSeconds"]))
            #expect(start >= 1_767_225_600 && start <= 1_767_225_600 + elapsed())

            let moved = try await request(
                "POST", "/_localdynamo/clock", body: #"{"advanceSeconds": 3600}"#,
                port: endpoint.port)
            #expect(moved.status == 200)
            let after = try #require(Self.number(moved.json["epochSeconds"]))
            #expect(after >= start + 3600 && after <= start + 3600 + elapsed())
            let offset = try #require(Self.number(moved.json["offsetSeconds"]))
            #expect(abs(offset - startOffset - 3600) < 0.01)

            let set = try await request(
                "POST", "/_localdynamo/clock", body: #"{"epochSeconds": 1900000000}"#,
                port: endpoint.port)
            #expect(Self.number(set.json["epochSeconds"]) == 1_900_000_000)
        }
    }

    @Test func theClockNeverGoesBackwards() async throws {
        try await withTestServer { endpoint in
            let back = try await request("POST", "/_localdynamo/clock", body: #"{"advanceSeconds": -1}"#, port: endpoint.port)
            #expect(back.status == 400)
            #expect(back.json["error"]?.stringValue?.contains("never goes backwards") == true)
            let past = try await request("POST", "/_localdynamo/clock", body: #"{"epochSeconds": 0}"#, port: endpoint.port)
            #expect(past.status == 400)
            let both = try await request(
                "POST", "/_localdynamo/clock",
                body: #"{"epochSeconds": 1, "advanceSeconds": 1}"#, port: endpoint.port)
            #expect(both.status == 400)
            let notJSON = try await request("POST", "/_localdynamo/clock", body: "[1]", port: endpoint.port)
            #expect(notJSON.status == 400)
            let text = try await request("POST", "/_localdynamo/clock", body: #"{"advanceSeconds": "10"}"#, port: endpoint.port)
            #expect(text.status == 400)
        }
    }

    @Test func unknownPathsAndMethodsAreRefusedAsJSON() async throws {
        try await withTestServer { endpoint in
            let missing = try await request("GET", "/_localdynamo/nothing-here", port: endpoint.port)
            #expect(missing.status == 404)
            #expect(missing.json["error"] != nil)
            let method = try await request("DELETE", "/_localdynamo/clock", port: endpoint.port)
            #expect(method.status == 405)
        }
    }

    @Test func tableCreationTimesReadTheServerClock() async throws {
        let began = ContinuousClock.now
        try await withTestServer(clockStart: 1_500_000_000) { endpoint in
            _ = try await request("POST", "/_localdynamo/clock", body: #"{"epochSeconds": 1600000000}"#, port: endpoint.port)
            let created = try await LocalDynamoServerTests().call(
                "CreateTable", LocalDynamoServerTests.createTable,
                port: endpoint.port)
            let time = try #require(Self.number(created.json["TableDescription"]?["CreationDateTime"]))
            #expect(time >= 1_600_000_000 && time <= 1_600_000_001 + Double((ContinuousClock.now - began).components.seconds))
        }
    }

    @Test func onlyLoopbackPeersCountAsLocal() throws {
        #expect(HTTPRequestHandler.isLoopback(try SocketAddress(ipAddress: "127.0.0.1", port: 1)))
        #expect(HTTPRequestHandler.isLoopback(try SocketAddress(ipAddress: "127.3.4.5", port: 1)))
        #expect(HTTPRequestHandler.isLoopback(try SocketAddress(ipAddress: "::1", port: 1)))
        #expect(!HTTPRequestHandler.isLoopback(try SocketAddress(ipAddress: "10.0.0.1", port: 1)))
        #expect(!HTTPRequestHandler.isLoopback(try SocketAddress(ipAddress: "192.168.1.1", port: 1)))
        #expect(!HTTPRequestHandler.isLoopback(nil))
    }

    @Test func remoteCallersAreRefusedUnlessAllowed() async throws {
        let router = AdminRouter(routes: AdminRoutes.all, environment: try Self.environment(), allowRemote: false)
        let request = AdminRequest(method: "GET", uri: "/_localdynamo/clock", body: [])
        #expect(await router.respond(to: request, fromLoopback: false).status == 403)
        #expect(await router.respond(to: request, fromLoopback: true).status == 200)
        let open = AdminRouter(routes: AdminRoutes.all, environment: try Self.environment(), allowRemote: true)
        #expect(await open.respond(to: request, fromLoopback: false).status == 200)
    }

    static func environment() throws -> AdminEnvironment {
        AdminEnvironment(
            engine: try .init(storage: .inMemory, namespaceMode: .perRegion, logger: .init(label: "t")),
            threadPool: .singleton, logger: .init(label: "t"))
    }
}

/// `/_localdynamo/snapshots`: a seeded state restored in place, per namespace or for all.
@Suite struct SnapshotAdminTests {
    let admin = AdminAPITests()
    let dynamo = LocalDynamoServerTests()

    func itemCount(_ port: Int, region: String = "us-east-1") async throws -> JSONValue? {
        let scan = try await dynamo.call("Scan", #"{"TableName":"Things","Select":"COUNT"}"#, port: port, region: region)
        return scan.json["Count"] ?? scan.json["__type"]
    }

    @Test func restoreBringsBackTheSnapshotState() async throws {
        try await withTestServer { endpoint in
            let port = endpoint.port
            _ = try await dynamo.call("CreateTable", LocalDynamoServerTests.createTable, port: port)
            _ = try await dynamo.call("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"seed"}}}"#, port: port)
            let taken = try await admin.request("POST", "/_localdynamo/snapshots", body: #"{"name":"clean"}"#, port: port)
            #expect(taken.status == 200)
            #expect(taken.json["namespaces"]?["us-east-1"] == .array([.string("Things")]))

            for key in ["a", "b", "c"] {
                _ = try await dynamo.call("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"\#(key)"}}}"#, port: port)
            }
            _ = try await dynamo.call("DeleteItem", #"{"TableName":"Things","Key":{"pk":{"S":"seed"}}}"#, port: port)
            // A namespace opened after an every-namespace snapshot is emptied by its restore.
            _ = try await dynamo.call("CreateTable", LocalDynamoServerTests.createTable, port: port, region: "eu-west-1")
            #expect(try await itemCount(port) == .number("3"))

            let restored = try await admin.request("POST", "/_localdynamo/snapshots/clean/restore", port: port)
            #expect(restored.status == 200)
            #expect(try await itemCount(port) == .number("1"))
            let seed = try await dynamo.call("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"seed"}}}"#, port: port)
            #expect(seed.json["Item"] != nil)
            #expect(try await itemCount(port, region: "eu-west-1") == .string("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"))
            let described = try await dynamo.call("DescribeTable", #"{"TableName":"Things"}"#, port: port)
            #expect(described.json["Table"]?["ItemCount"] == .number("1"))

            // Restoring twice gives the same state again.
            _ = try await dynamo.call("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"z"}}}"#, port: port)
            _ = try await admin.request("POST", "/_localdynamo/snapshots/clean/restore", port: port)
            #expect(try await itemCount(port) == .number("1"))
        }
    }

    @Test func snapshotsCanBeListedDeletedAndRefused() async throws {
        try await withTestServer { endpoint in
            let port = endpoint.port
            _ = try await dynamo.call("CreateTable", LocalDynamoServerTests.createTable, port: port)
            let one = try await admin.request(
                "POST", "/_localdynamo/snapshots",
                body: #"{"name":"one","namespace":"us-east-1"}"#, port: port)
            #expect(one.status == 200)
            let list = try await admin.request("GET", "/_localdynamo/snapshots", port: port)
            #expect(list.json["snapshots"]?.arrayCount == 1)
            #expect(
                try await admin.request(
                    "POST", "/_localdynamo/snapshots", body: #"{"name":"x","namespace":"mars-1"}"#,
                    port: port
                ).status == 404)
            #expect(try await admin.request("POST", "/_localdynamo/snapshots", body: #"{"name":"a b"}"#, port: port).status == 400)
            #expect(try await admin.request("POST", "/_localdynamo/snapshots", body: #"{}"#, port: port).status == 400)
            #expect(try await admin.request("POST", "/_localdynamo/snapshots/nope/restore", port: port).status == 404)
            #expect(try await admin.request("DELETE", "/_localdynamo/snapshots/one", port: port).status == 200)
            #expect(try await admin.request("DELETE", "/_localdynamo/snapshots/one", port: port).status == 404)
        }
    }
}

extension JSONValue {
    var arrayCount: Int? {
        if case .array(let values) = self { return values.count }
        return nil
    }
}

/// README's admin table lists every admin route, so the one table stays true to the code.
@Suite struct AdminDocumentationTests {
    @Test func readmeListsEveryRoute() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        for route in AdminRoutes.all {
            let path = route.path.replacingOccurrences(of: "{name}", with: "NAME")
            #expect(readme.contains("| `\(route.method) \(path)` |"), "README's admin table lacks \(route.method) \(path)")
        }
    }
}
