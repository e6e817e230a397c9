import DynamoAPI
@testable import DynamoServer
import Testing

/// Connection handling: keep-alive, pipelining, body framing and limits, shutdown.
@Suite struct HTTPServerConnectionTests {
    func echoedBody(_ response: TestHTTPResponse) throws -> JSONValue? {
        try JSONValue(parsing: response.body)["body"]
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            var requestIDs = Set<String>()
            for index in 0..<5 {
                try await client.send(TestRequest.make(body: #"{"n":\#(index)}"#))
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(try echoedBody(response) == .object(["n": .number("\(index)")]))
                requestIDs.insert(response.header("x-amzn-RequestId") ?? "")
            }
            #expect(requestIDs.count == 5)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            // The first is the slowest: answers must still come back in request order.
            let requests =
                TestRequest.make(target: "DynamoDB_20120810.Slow", body: #"{"ms":200,"n":0}"#)
                + TestRequest.make(target: "DynamoDB_20120810.Slow", body: #"{"ms":1,"n":1}"#)
                + TestRequest.make(body: "not json")
                + TestRequest.make(body: #"{"n":3}"#)
            try await client.send(requests)
            let first = try await client.readResponse()
            #expect(try echoedBody(first)?["n"] == .number("0"))
            let second = try await client.readResponse()
            #expect(try echoedBody(second)?["n"] == .number("1"))
            let third = try await client.readResponse()
            #expect(third.status == 400)
            let fourth = try await client.readResponse()
            #expect(try echoedBody(fourth)?["n"] == .number("3"))
        }
    }

    @Test func manyPipelinedFastRequestsKeepTheirOrder() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            // Answered synchronously, each answer releases the next buffered request from inside
            // the previous write: order and state must survive that re-entrance.
            try await client.send((0..<50).map { TestRequest.make(body: #"{"n":\#($0)}"#) }.joined())
            for index in 0..<50 {
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(try echoedBody(response)?["n"] == .number("\(index)"))
            }
        }
    }

    @Test func malformedHTTPAfterAPipelinedRequestIsAnsweredInItsTurn() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            // The slow answer is still being prepared when the garbage arrives: it comes first,
            // then the 400, then the connection closes.
            try await client.send(
                TestRequest.make(target: "DynamoDB_20120810.Slow", body: #"{"ms":100,"n":0}"#)
                    + "GARBAGE \u{1} NOT HTTP\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.status == 200)
            #expect(try echoedBody(first)?["n"] == .number("0"))
            let second = try await client.readResponse(expectingBody: false)
            #expect(second.status == 400)
            #expect(second.header("Connection")?.lowercased() == "close")
            #expect(try await client.readUntilClosed())
        }
    }

    @Test func headRequestsGetHeadersOnly() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            try await client.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
            // A HEAD answer has no body: the next answer must start right after its headers.
            try await client.send(TestRequest.make())
            let head = try await client.readResponse(expectingBody: false)
            #expect(head.status == 404)
            #expect(head.header("Content-Length") == "29")
            #expect(try await client.readResponse().status == 200)
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            try await client.send(TestRequest.make(extraHeaders: [("Connection", "close")]))
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            #expect(try await client.readUntilClosed())
        }
    }

    @Test func http10KeepAliveIsAnsweredExplicitly() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            let request = TestRequest.make(version: "HTTP/1.0", extraHeaders: [("Connection", "keep-alive")])
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Connection") == "keep-alive")
            try await client.send(request)
            #expect(try await client.readResponse().status == 200)
        }
    }

    @Test func halfClosedClientStillGetsItsAnswer() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            try await client.send(TestRequest.make(target: "DynamoDB_20120810.Slow", body: #"{"ms":50}"#))
            client.shutdownWrite()
            #expect(try await client.readResponse().status == 200)
            #expect(try await client.readUntilClosed())
        }
    }

    @Test func chunkedBodiesAreAccepted() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            let body = #"{"TableName":"chunked","Key":{}}"#
            let chunks = [String(body.prefix(10)), String(body.dropFirst(10))]
            var request = TestRequest.make(extraHeaders: [("Transfer-Encoding", "chunked")], body: "")
            for chunk in chunks {
                request += String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
            }
            request += "0\r\n\r\n"
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(try echoedBody(response) == .object(["TableName": .string("chunked"), "Key": .object([:])]))
            // And the connection is still usable.
            try await client.send(TestRequest.make())
            #expect(try await client.readResponse().status == 200)
        }
    }

    @Test func expectContinueIsAnswered() async throws {
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            let body = #"{"a":1}"#
            let request = TestRequest.make(extraHeaders: [("Expect", "100-continue")], body: body)
            try await client.send(String(request.dropLast(body.utf8.count)))
            #expect(try await client.readResponse().status == 100)
            try await client.send(body)
            #expect(try await client.readResponse().status == 200)
        }
    }

    @Test func oversizeBodyWithContentLengthIs413() async throws {
        try await withHTTPTestServer(.init(maximumRequestBodyBytes: 1024)) { _, port in
            let client = try TestHTTPClient(port: port)
            let body = #"{"x":""# + String(repeating: "a", count: 2000) + #""}"#
            try await client.send(TestRequest.make(body: body))
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.body.isEmpty)
            #expect(response.header("Content-Length") == "0")
            #expect(response.header("Connection") == "close")
            #expect(response.header("x-amzn-RequestId")?.utf8.count == 52)
            #expect(try await client.readUntilClosed())

            // A body exactly at the limit is fine.
            let exact = #"{"x":""# + String(repeating: "a", count: 1024 - 8) + #""}"#
            #expect(exact.utf8.count == 1024)
            let ok = try TestHTTPClient(port: port)
            try await ok.send(TestRequest.make(body: exact))
            #expect(try await ok.readResponse().status == 200)
        }
    }

    @Test func oversizeChunkedBodyIs413() async throws {
        try await withHTTPTestServer(.init(maximumRequestBodyBytes: 1024)) { _, port in
            let client = try TestHTTPClient(port: port)
            var request = TestRequest.make(extraHeaders: [("Transfer-Encoding", "chunked")], body: "")
            let chunk = String(repeating: "a", count: 600)
            for _ in 0..<3 { request += "258\r\n" + chunk + "\r\n" }
            request += "0\r\n\r\n"
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(try await client.readUntilClosed())
        }
    }

    @Test func oversizeWithExpectContinueIsRefusedBeforeTheBody() async throws {
        try await withHTTPTestServer(.init(maximumRequestBodyBytes: 1024)) { _, port in
            let client = try TestHTTPClient(port: port)
            let request =
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                + "Content-Length: 5000\r\nExpect: 100-continue\r\n\r\n"
            try await client.send(request)
            #expect(try await client.readResponse().status == 413)
            #expect(try await client.readUntilClosed())
        }
    }

    @Test func largeBodiesAreParsedOffTheEventLoop() async throws {
        // Above `inlineBodyBytes` the same checks run on the global pool; the answers are the same.
        try await withHTTPTestServer(.init(inlineBodyBytes: 16)) { _, port in
            let client = try TestHTTPClient(port: port)
            let body = #"{"x":""# + String(repeating: "b", count: 100) + #""}"#
            try await client.send(TestRequest.make(body: body))
            #expect(try await client.readResponse().status == 200)
            try await client.send(TestRequest.make(body: "[" + String(repeating: "1,", count: 50)))
            #expect(try await client.readResponse().status == 400)
            try await client.send(TestRequest.make(authorization: nil, body: body))
            #expect(try await client.readResponse().status == 400)
        }
    }

    @Test func largeBodiesAreAnsweredWhileTheConcurrencyPoolIsBusy() async throws {
        // A process embedding the server (an app, an in-process test run) may keep every thread
        // of the global concurrency pool busy for seconds: a large body's checks and dispatch
        // must not wait for one of them.
        try await withHTTPTestServer(.init(inlineBodyBytes: 16)) { _, port in
            let client = try TestHTTPClient(port: port, receiveTimeoutSeconds: 5)
            let body = #"{"x":""# + String(repeating: "b", count: 100) + #""}"#
            let occupation = PoolOccupation()
            let response = Result { try client.exchangeOnThisThread(Array(TestRequest.make(body: body).utf8)) }
            await occupation.end()
            #expect(try response.get().status == 200)
        }
    }

    @Test func gracefulShutdownFinishesInFlightRequests() async throws {
        let dispatcher = FakeDispatcher()
        let server = HTTPServer(configuration: .init(port: 0), dispatcher: dispatcher)
        let port = try await server.start()

        let idle = try TestHTTPClient(port: port)
        try await idle.send(TestRequest.make())
        #expect(try await idle.readResponse().status == 200)

        let busy = try TestHTTPClient(port: port)
        try await busy.send(TestRequest.make(target: "DynamoDB_20120810.Gated"))
        await dispatcher.gate.waitForArrival() // the request is now in flight

        let shutdown = Task { await server.shutdown() }
        // The idle keep-alive connection is closed at once, the busy one is not.
        #expect(try await idle.readUntilClosed())
        // Shutdown closes the listener before it closes idle connections: no wait is needed.
        #expect((try? TestHTTPClient(port: port, receiveTimeoutSeconds: 1)) == nil, "no longer accepting")
        await dispatcher.gate.open()

        let response = try await busy.readResponse()
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(try await busy.readUntilClosed())
        await shutdown.value
    }

    @Test func shutdownGivesUpAfterTheGracePeriod() async throws {
        let server = HTTPServer(
            configuration: .init(port: 0, shutdownGracePeriod: .milliseconds(100)), dispatcher: FakeDispatcher())
        let port = try await server.start()
        let busy = try TestHTTPClient(port: port)
        // The request would take 30 s; shutdown must stop waiting after its 100 ms grace period
        // (the bound below is loose so a loaded machine cannot fail it).
        try await busy.send(TestRequest.make(target: "DynamoDB_20120810.Slow", body: #"{"ms":30000}"#))
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        await server.shutdown()
        #expect(clock.now - start < .seconds(10))
        #expect(try await busy.readUntilClosed())
    }

    @Test func portZeroReportsTheBoundPort() async throws {
        let server = HTTPServer(configuration: .init(port: 0), dispatcher: FakeDispatcher())
        let port = try await server.start()
        #expect(port > 0)
        #expect(await server.port == port)
        await #expect(throws: HTTPServer.AlreadyStartedError.self) { try await server.start() }
        await server.shutdown()
        await server.shutdown() // a second call does nothing
    }
}
