import DynamoAPI
@testable import DynamoServer
import DynamoTestSupport
import DynamoEngine
import Logging
import NIOCore
import NIOPosix
import Testing

/// The admin API under `/_localdynamo/`: JSON answers, the clock, and its refusals.
@Suite struct AdminAPITests {
    /// Sends one HTTP request and returns status and parsed JSON body.
    func request(_ method: String, _ path: String, body: String = "", port: Int) async throws -> (status: Int, json: JSONValue) {
        let client = try TestHTTPClient(port: port)
        try await client.send("""
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
        try await withTestServer(clockStart: 1_767_225_600) { endpoint in
            let read = try await request("GET", "/_localdynamo/clock", port: endpoint.port)
            #expect(read.status == 200)
            let start = try #require(Self.number(read.json["epochSeconds"]))
            let startOffset = try #require(Self.number(read.json["offsetSeconds"]))
            #expect(start >= 1_767_225_600 && start < 1_767_225_660)

            let moved = try await request("POST", "/_localdynamo/clock", body: #"{"advanceSeconds": 3600}"#,
                                          port: endpoint.port)
            #expect(moved.status == 200)
            let after = try #require(Self.number(moved.json["epochSeconds"]))
            #expect(after >= start + 3600 && after < start + 3660)
            let offset = try #require(Self.number(moved.json["offsetSeconds"]))
            #expect(abs(offset - startOffset - 3600) < 0.01)

            let set = try await request("POST", "/_localdynamo/clock", body: #"{"epochSeconds": 1900000000}"#,
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
            let both = try await request("POST", "/_localdynamo/clock",
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
        try await withTestServer(clockStart: 1_500_000_000) { endpoint in
            _ = try await request("POST", "/_localdynamo/clock", body: #"{"epochSeconds": 1600000000}"#, port: endpoint.port)
            let created = try await LocalDynamoServerTests().call("CreateTable", LocalDynamoServerTests.createTable,
                                                                  port: endpoint.port)
            let time = try #require(Self.number(created.json["TableDescription"]?["CreationDateTime"]))
            #expect(time >= 1_600_000_000 && time < 1_600_000_060)
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
        AdminEnvironment(engine: try .init(storage: .inMemory, namespaceMode: .perRegion, logger: .init(label: "t")),
                         threadPool: .singleton, logger: .init(label: "t"))
    }
}
