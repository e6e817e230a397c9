import DynamoAPI
@testable import DynamoServer
import DynamoTestSupport
import Testing

/// `serve --consistency service` over HTTP: a read right after a write misses it, the admin
/// API says what is pending and settles it, the clock ends it, `/metrics` counts the stale
/// answers, and a table can be made exact on its own.
@Suite struct ConsistencyAdminTests {
    let admin = AdminAPITests()
    static let window: Double = 86_400

    static func configuration(_ mode: LocalDynamoServer.Consistency.Mode) -> LocalDynamoServer.Configuration {
        var configuration = LocalDynamoServer.Configuration(clockStart: 1_767_225_600)
        // The server clock follows real time from its start: a window of a day keeps every lag
        // this seed draws far longer than a run on a loaded machine takes between a write and its
        // read (a window of one second let the read come after the lag, now and then).
        configuration.consistency = .init(mode: mode, seed: 1, staleProbability: 1, window: window)
        return configuration
    }

    /// The first element of a JSON array.
    static func first(_ value: JSONValue?) -> JSONValue? {
        if case .array(let elements)? = value { return elements.first }
        return nil
    }

    static func putAndGet(_ key: String, port: Int, consistent: Bool = false) async throws -> String {
        let put = try await DispatchPolicyTests.send("PutItem", #"{"TableName":"Things","Item":{"pk":{"S":"\#(key)"}}}"#, port: port)
        #expect(put.status == 200)
        let get = try await DispatchPolicyTests.send(
            "GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"\#(key)"}},"ConsistentRead":\#(consistent)}"#, port: port)
        #expect(get.status == 200)
        return get.text
    }

    @Test func settleMakesWhatIsPendingVisible() async throws {
        try await withTestServer(configuration: Self.configuration(.service)) { endpoint in
            try await DispatchPolicyTests.createThings(port: endpoint.port)
            #expect(try await Self.putAndGet("a", port: endpoint.port) == "{}")
            #expect(try await Self.putAndGet("b", port: endpoint.port, consistent: true) == #"{"Item":{"pk":{"S":"b"}}}"#)

            let status = try await admin.request("GET", "/_localdynamo/consistency", port: endpoint.port)
            #expect(status.status == 200)
            #expect(status.json["mode"]?.stringValue == "service")
            let namespace = Self.first(status.json["namespaces"])
            #expect(namespace?["namespace"]?.stringValue == "eu-west-1") // TestRequest signs for eu-west-1
            #expect(AdminAPITests.number(namespace?["staleAnswers"]) == 1)
            #expect(Self.first(namespace?["pending"])?["table"]?.stringValue == "Things")
            #expect(AdminAPITests.number(Self.first(namespace?["pending"])?["items"]) == 2)

            let settled = try await admin.request("POST", "/_localdynamo/consistency/settle", port: endpoint.port)
            #expect(settled.status == 200)
            #expect(AdminAPITests.number(settled.json["settled"]) == 2)
            let get = try await DispatchPolicyTests.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"a"}}}"#, port: endpoint.port)
            #expect(get.text == #"{"Item":{"pk":{"S":"a"}}}"#)

            let client = try TestHTTPClient(port: endpoint.port)
            try await client.send(TestRequest.make(method: "GET", path: "/metrics", target: nil, contentType: nil, authorization: nil, body: ""))
            let metrics = try await client.readResponse()
            #expect(metrics.text.contains("localdynamo_consistency_stale_answers_total 1\n"))
        }
    }

    @Test func movingTheClockPastTheWindowSettles() async throws {
        try await withTestServer(configuration: Self.configuration(.service)) { endpoint in
            try await DispatchPolicyTests.createThings(port: endpoint.port)
            #expect(try await Self.putAndGet("a", port: endpoint.port) == "{}")
            try endpoint.server.advanceClock(by: Self.window)
            let get = try await DispatchPolicyTests.send("GetItem", #"{"TableName":"Things","Key":{"pk":{"S":"a"}}}"#, port: endpoint.port)
            #expect(get.text == #"{"Item":{"pk":{"S":"a"}}}"#)
        }
    }

    @Test func aTableOrTheServerCanBeMadeExact() async throws {
        try await withTestServer(configuration: Self.configuration(.service)) { endpoint in
            try await DispatchPolicyTests.createThings(port: endpoint.port)
            let exact = try await admin.request(
                "POST", "/_localdynamo/consistency", body: #"{"mode":"exact","table":"Things"}"#, port: endpoint.port)
            #expect(exact.status == 200)
            #expect(Self.first(exact.json["namespaces"])?["tables"]?["Things"]?.stringValue == "exact")
            #expect(try await Self.putAndGet("a", port: endpoint.port) == #"{"Item":{"pk":{"S":"a"}}}"#)
            endpoint.server.setConsistency(nil, table: "Things")
            #expect(try await Self.putAndGet("b", port: endpoint.port) == "{}")
        }
        try await withTestServer(configuration: Self.configuration(.exact)) { endpoint in
            try await DispatchPolicyTests.createThings(port: endpoint.port)
            #expect(try await Self.putAndGet("a", port: endpoint.port) == #"{"Item":{"pk":{"S":"a"}}}"#)
            let service = try await admin.request("POST", "/_localdynamo/consistency", body: #"{"mode":"service"}"#, port: endpoint.port)
            #expect(service.json["mode"]?.stringValue == "service")
            #expect(try await Self.putAndGet("b", port: endpoint.port) == "{}")
        }
    }

    @Test func aNamespaceCanBeMadeExactAndBack() async throws {
        try await withTestServer(configuration: Self.configuration(.service)) { endpoint in
            try await DispatchPolicyTests.createThings(port: endpoint.port)
            let exact = try await admin.request(
                "POST", "/_localdynamo/consistency", body: #"{"mode":"exact","namespace":"eu-west-1"}"#, port: endpoint.port)
            #expect(Self.first(exact.json["namespaces"])?["mode"]?.stringValue == "exact")
            #expect(exact.json["mode"]?.stringValue == "service")
            #expect(try await Self.putAndGet("a", port: endpoint.port) == #"{"Item":{"pk":{"S":"a"}}}"#)
            let back = try await admin.request(
                "POST", "/_localdynamo/consistency", body: #"{"mode":null,"namespace":"eu-west-1"}"#, port: endpoint.port)
            #expect(Self.first(back.json["namespaces"])?["mode"]?.stringValue == "service")
            #expect(try await Self.putAndGet("b", port: endpoint.port) == "{}")
        }
    }

    @Test func badRequestsAreRefused() async throws {
        try await withTestServer(configuration: Self.configuration(.service)) { endpoint in
            for body in [#"{"mode":"eventual"}"#, #"{"mode":1}"#, #"{"mode":null}"#, #"{"mode":"exact","tabel":"T"}"#, "[]"] {
                let answer = try await admin.request("POST", "/_localdynamo/consistency", body: body, port: endpoint.port)
                #expect(answer.status == 400, "\(body)")
            }
        }
    }
}
