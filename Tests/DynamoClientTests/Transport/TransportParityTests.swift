import Foundation
import Testing
@testable import DynamoClient
@testable import DynamoURLSession
import DynamoTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Both transports (where both exist) answer and fail alike, so the retry logic above them
/// cannot tell them apart.
struct TransportParityTests {
    /// libcurl where DynamoClient links it, and URLSession everywhere (through DynamoURLSession,
    /// which DynamoClient links only on Apple platforms).
    static let available = DynamoClient.TransportChoice.allCases.filter { $0.isAvailable || $0 == .urlsession }

    static func transport(_ choice: DynamoClient.TransportChoice) -> any HTTPTransport {
        switch choice {
        case .urlsession: URLSessionTransport(maximumConnections: 4)
        case .curl: DynamoClient.defaultTransport(maximumConnections: 4, environment: ["DYNAMOCLIENT_TRANSPORT": "curl"])
        }
    }

    @Test(arguments: available)
    func responseStatusHeadersAndBodyAsSent(choice: DynamoClient.TransportChoice) async throws {
        let body = #"{"TableNames":["a","ü"]}"#
        try await withFakeServer([.respond(status: 400, headers: ["X-Amzn-ErrorType": "Thing"], body: body)]) { server in
            let request = HTTPRequest(
                method: "POST", url: server.url,
                headers: [
                    ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
                    ("Content-Type", "application/x-amz-json-1.0"),
                ],
                body: Array("{}".utf8))
            let response = try await Self.transport(choice).send(request, timeouts: HTTPTimeouts())
            #expect(response.status == 400)
            #expect(response.body == Array(body.utf8))
            #expect(response.headers["x-amzn-errortype"] == "Thing")
            #expect(response.headers["x-amz-crc32"] == "\(FakeHTTPServer.crc32(Array(body.utf8)))")
            #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() })
            let received = try #require(server.requests.first)
            #expect(received.method == "POST")
            #expect(received.body == "{}")
            #expect(received.headers["x-amz-target"] == "DynamoDB_20120810.ListTables")
            #expect(received.headers["cookie"] == nil)
        }
    }

    @Test(arguments: available)
    func refusedConnectionIsConnectionFailed(choice: DynamoClient.TransportChoice) async throws {
        try await withRefusingPort { port in
            let error = await #expect(throws: TransportError.self) {
                try await Self.transport(choice).send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/"), timeouts: HTTPTimeouts())
            }
            #expect(error?.kind == .connectionFailed)
            #expect(error?.isRetryable == true)
        }
    }

    @Test(arguments: available)
    func droppedConnectionIsConnectionLost(choice: DynamoClient.TransportChoice) async throws {
        try await withFakeServer([.dropConnection]) { server in
            let error = await #expect(throws: TransportError.self) {
                try await Self.transport(choice).send(HTTPRequest(method: "POST", url: server.url, body: [1]), timeouts: HTTPTimeouts())
            }
            #expect(error?.kind == .connectionLost)
        }
    }

    /// The fake server's answer is held far longer than any wait here (an abandoned request
    /// is seen within milliseconds when the transport closes its connection), so the outcome
    /// never depends on how fast a loaded machine schedules URLSession's cancellation: with a
    /// 20 s hold, a run of the whole suite on 2 cores once saw the hold end before the close.
    @Test(arguments: available)
    func slowAnswerTimesOutAndIsAbandoned(choice: DynamoClient.TransportChoice) async throws {
        try await withFakeServer([.held()]) { server in
            let error = await #expect(throws: TransportError.self) {
                try await Self.transport(choice).send(
                    HTTPRequest(method: "GET", url: server.url),
                    timeouts: HTTPTimeouts(connect: .seconds(1), request: .milliseconds(500)))
            }
            #expect(error?.kind == .timedOut)
            let abandoned = try await server.abandonedDelays(reaching: 1)
            #expect(abandoned == 1)
        }
    }

    @Test(arguments: available)
    func cancellingTheTaskCancelsTheRequest(choice: DynamoClient.TransportChoice) async throws {
        try await withFakeServer([.held()]) { server in
            let transport = Self.transport(choice)
            let task = Task { try await transport.send(HTTPRequest(method: "GET", url: server.url), timeouts: HTTPTimeouts()) }
            while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            let abandoned = try await server.abandonedDelays(reaching: 1)
            #expect(abandoned == 1)
        }
    }

    @Test(arguments: available)
    func malformedURLIsInvalidRequest(choice: DynamoClient.TransportChoice) async throws {
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(choice).send(HTTPRequest(method: "GET", url: "nope://127.0.0.1/x"), timeouts: HTTPTimeouts())
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func environmentChoosesAmongAvailableTransports() {
        typealias Choice = DynamoClient.TransportChoice
        #expect(Choice.resolved(environment: [:]) == Choice.platformDefault)
        #expect(Choice.resolved(environment: ["DYNAMOCLIENT_TRANSPORT": "gopher"]) == Choice.platformDefault)
        #if canImport(CCurl)
            // DynamoClient does not link URLSession on Linux: asking for it keeps libcurl.
            #expect(Choice.platformDefault == .curl)
            #expect(!Choice.urlsession.isAvailable)
            #expect(Choice.resolved(environment: ["DYNAMOCLIENT_TRANSPORT": " curl "]) == .curl)
            #expect(Choice.resolved(environment: ["DYNAMOCLIENT_TRANSPORT": "URLSession"]) == .curl)
            #expect(DynamoClient.defaultTransport(environment: ["DYNAMOCLIENT_TRANSPORT": "urlsession"]) is CurlTransport)
            #expect(DynamoClient.defaultTransport(environment: [:]) is CurlTransport)
            // The tests' own choice still reaches URLSession there, through DynamoURLSession.
            #expect(TestTransport.defaultSocketTransport(environment: ["DYNAMOCLIENT_TRANSPORT": "URLSession"]) is URLSessionTransport)
            #expect(TestTransport.defaultSocketTransport(environment: [:]) is CurlTransport)
        #else
            #expect(Choice.platformDefault == .urlsession)
            #expect(Choice.resolved(environment: ["DYNAMOCLIENT_TRANSPORT": "URLSession"]) == .urlsession)
            #expect(Choice.resolved(environment: ["DYNAMOCLIENT_TRANSPORT": "curl"]) == .urlsession)
        #endif
    }

    /// URLSession honours `bypassesProxy` through an empty proxy dictionary on Apple platforms;
    /// FoundationNetworking ignores that, so there such a request is refused while a proxy
    /// variable is set instead of reaching the proxy.
    @Test func urlSessionNeverSendsABypassingRequestToAProxy() {
        let direct = HTTPRequest(method: "PUT", url: "http://169.254.169.254/latest/api/token", bypassesProxy: true)
        let ordinary = HTTPRequest(method: "POST", url: "https://dynamodb.us-east-1.amazonaws.com/")
        let proxied = ["https_proxy": "http://proxy:3128"]
        #expect(URLSessionTransport.unbypassableProxy(for: direct, environment: [:]) == nil)
        #expect(URLSessionTransport.unbypassableProxy(for: ordinary, environment: proxied) == nil)
        #if canImport(FoundationNetworking)
            #expect(URLSessionTransport.unbypassableProxy(for: direct, environment: proxied)?.kind == .invalidRequest)
            #expect(URLSessionTransport.unbypassableProxy(for: direct, environment: ["ALL_PROXY": "socks5://p:1"])?.kind == .invalidRequest)
        #else
            #expect(URLSessionTransport.unbypassableProxy(for: direct, environment: proxied) == nil)
        #endif
    }

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, TransportError.Kind.connectionFailed), (.cannotFindHost, .connectionFailed),
        (.notConnectedToInternet, .connectionFailed), (.secureConnectionFailed, .connectionFailed),
        (.timedOut, .timedOut), (.networkConnectionLost, .connectionLost), (.badServerResponse, .connectionLost),
        (.serverCertificateUntrusted, .tls), (.serverCertificateHasBadDate, .tls),
        (.badURL, .invalidRequest), (.unsupportedURL, .invalidRequest), (.unknown, .other),
    ])
    func urlErrorCodesMapLikeCurlCodes(code: URLError.Code, kind: TransportError.Kind) {
        let error = TransportError(urlError: URLError(code))
        #expect(error.kind == kind)
        #expect(error.urlErrorCode == code.rawValue)
        #expect(error.curlCode == nil)
    }
}
