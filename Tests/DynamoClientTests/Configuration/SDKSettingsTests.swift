import DynamoAPI
import DynamoTestSupport
import Foundation
import Synchronization
import Testing
@testable import DynamoClient

/// The SDKs' remaining settings: FIPS / dual-stack endpoints, account-based endpoints, the
/// retry mode, clock-skew correction.
struct SDKSettingsTests {
    typealias Resolve = ServiceLocationTests

    @Test(arguments: [
        ([:], "https://dynamodb.us-east-2.amazonaws.com/", "https://streams.dynamodb.us-east-2.amazonaws.com/"),
        (
            ["AWS_USE_FIPS_ENDPOINT": "true"], "https://dynamodb-fips.us-east-2.amazonaws.com/",
            "https://streams.dynamodb-fips.us-east-2.amazonaws.com/"
        ),
        (["AWS_USE_DUALSTACK_ENDPOINT": "true"], "https://dynamodb.us-east-2.api.aws/", "https://streams.dynamodb.us-east-2.api.aws/"),
        (
            ["AWS_USE_FIPS_ENDPOINT": "true", "AWS_USE_DUALSTACK_ENDPOINT": "TRUE"], "https://dynamodb-fips.us-east-2.api.aws/",
            "https://streams.dynamodb-fips.us-east-2.api.aws/"
        ),
    ])
    func fipsAndDualStackEndpoints(environment: [String: String], endpoint: String, streams: String) throws {
        let location = try Resolve.resolve(region: "us-east-2", environment: environment)
        #expect(location.endpoint == endpoint)
        #expect(location.streamsEndpoint == streams)
    }

    @Test func profileKeysChooseVariantsAndEnvironmentWins() throws {
        let config = "[default]\nuse_fips_endpoint = true\nuse_dualstack_endpoint = true\n"
        #expect(try Resolve.resolve(region: "eu-west-1", config: config).endpoint == "https://dynamodb-fips.eu-west-1.api.aws/")
        #expect(
            try Resolve.resolve(region: "eu-west-1", environment: ["AWS_USE_FIPS_ENDPOINT": "false"], config: config).endpoint
                == "https://dynamodb.eu-west-1.api.aws/")
        #expect(
            try Resolve.resolve(region: "cn-north-1", environment: ["AWS_USE_DUALSTACK_ENDPOINT": "true"]).endpoint
                == "https://dynamodb.cn-north-1.api.amazonwebservices.com.cn/")
    }

    /// Records requests and answers `{}` with a correct CRC.
    final class RecordingTransport: HTTPTransport {
        let requests = Mutex<[HTTPRequest]>([])
        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            requests.withLock { $0.append(request) }
            return HTTPResponse(status: 200, headers: ["x-amz-crc32": "\(FakeHTTPServer.crc32(Array("{}".utf8)))"], body: Array("{}".utf8))
        }
    }

    static func client(
        environment: [String: String], credentials: AWSCredentials, config: String = "",
        endpoint: String? = nil
    ) throws -> (DynamoClient, RecordingTransport) {
        let transport = RecordingTransport()
        var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: endpoint, credentials: credentials)
        configuration.sources = ConfigurationSources(
            environment: ["HOME": "/home/tester"].merging(environment) { $1 },
            files: ["/home/tester/.aws/config": config])
        configuration.transport = transport
        return (try DynamoClient(configuration: configuration), transport)
    }

    static let withAccount = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "s", accountID: "123456789012")

    @Test func accountBasedEndpointFollowsTheCredentials() async throws {
        let (client, transport) = try Self.client(environment: [:], credentials: Self.withAccount)
        _ = try await client.listTables(ListTablesInput())
        _ = try await client.send(StreamsDescribeStreamInput(streamArn: "arn:aws:dynamodb:us-east-1:123456789012:table/T/stream/x"))
        let urls = transport.requests.withLock { $0.map(\.url) }
        #expect(urls == ["https://123456789012.ddb.us-east-1.amazonaws.com/", "https://streams.dynamodb.us-east-1.amazonaws.com/"])
        let signed = transport.requests.withLock { $0.first?.header("host") }
        #expect(signed == "123456789012.ddb.us-east-1.amazonaws.com")
        // Without an account id, or disabled, or with an endpoint configured: the regional / configured endpoint.
        let (plain, plainTransport) = try Self.client(environment: [:], credentials: TestClients.credentials)
        _ = try await plain.listTables(ListTablesInput())
        let (disabled, disabledTransport) = try Self.client(environment: ["AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled"], credentials: Self.withAccount)
        _ = try await disabled.listTables(ListTablesInput())
        let (custom, customTransport) = try Self.client(environment: [:], credentials: Self.withAccount, endpoint: "http://127.0.0.1:8000")
        _ = try await custom.listTables(ListTablesInput())
        #expect(plainTransport.requests.withLock { $0.first?.url } == "https://dynamodb.us-east-1.amazonaws.com/")
        #expect(disabledTransport.requests.withLock { $0.first?.url } == "https://dynamodb.us-east-1.amazonaws.com/")
        #expect(customTransport.requests.withLock { $0.first?.url } == "http://127.0.0.1:8000/")
    }

    @Test func requiredAccountEndpointErrors() async throws {
        let (client, transport) = try Self.client(
            environment: [:], credentials: TestClients.credentials,
            config: "[default]\naccount_id_endpoint_mode = required\n")
        let error = await #expect(throws: DynamoClientError.self) { try await client.listTables(ListTablesInput()) }
        #expect(error == .invalidConfiguration("AccountIdEndpointMode is required but no AccountID was provided or able to be loaded"))
        #expect(transport.requests.withLock { $0.isEmpty })
        #expect(
            throws: DynamoClientError.invalidConfiguration(
                "Invalid Configuration: AccountIdEndpointMode is required and FIPS is enabled, but FIPS account endpoints are not supported")
        ) {
            try Self.client(
                environment: ["AWS_ACCOUNT_ID_ENDPOINT_MODE": "required", "AWS_USE_FIPS_ENDPOINT": "true"],
                credentials: Self.withAccount)
        }
        let (badAccount, _) = try Self.client(
            environment: [:],
            credentials: AWSCredentials(
                accessKeyID: "A", secretAccessKey: "s",
                accountID: "evil.example.com/x"))
        await #expect(throws: DynamoClientError.invalidConfiguration("Credentials-sourced account ID parameter is invalid")) {
            try await badAccount.listTables(ListTablesInput())
        }
    }

    @Test(arguments: [
        ([:], "", RetryMode.standard), (["AWS_RETRY_MODE": "adaptive"], "", .adaptive),
        ([:], "[default]\nretry_mode = adaptive\n", .adaptive),
        (["AWS_RETRY_MODE": "standard"], "[default]\nretry_mode = adaptive\n", .standard),
        (["AWS_RETRY_MODE": "legacy"], "", .standard),
    ])
    func retryModeResolution(environment: [String: String], config: String, mode: RetryMode) throws {
        let (client, _) = try Self.client(environment: environment, credentials: TestClients.credentials, config: config)
        #expect((client.rateLimiter != nil) == (mode == .adaptive))
    }

    @Test func adaptiveModeSlowsDownAfterThrottling() async throws {
        try await withFakeServer([.error(400, "ThrottlingException", "Rate exceeded"), .ok(), .ok()]) { server in
            let sleeps = SleepRecorder()
            let time = Mutex(1000.0)
            var retry = sleeps.retry()
            retry.mode = .adaptive
            retry.monotonicSeconds = { time.withLock { $0 } }
            let client = try TestClients.client(endpoint: server.url, retry: retry)
            _ = try await client.listTables(ListTablesInput())
            #expect(client.rateLimiter?.isEnabled == true)
            // Throttled at a measured rate of 0: the limiter allows its minimum, 0.5 per second,
            // so the retry first waits for a token (2 s), after the backoff (0.5 × 1 s).
            #expect(sleeps.recorded == [.milliseconds(500), .seconds(2)])
            #expect(client.rateLimiter?.allowedRate == 0.5)
        }
    }

    @Test func adaptiveRatesMatchBotocore() throws {
        var generator = SeededRandom(seed: 0xADA971E)
        var time = 1000.25
        var events: [(Double, Bool)] = []
        for _ in 0..<200 {
            time += Double.random(in: 0..<0.7, using: &generator)
            events.append((time, Double.random(in: 0..<1, using: &generator) < 0.3))
        }
        let clock = Mutex(1000.25)
        let limiter = AdaptiveRateLimiter(now: { clock.withLock { $0 } })
        var ours: [Double] = []
        for (at, throttled) in events {
            clock.withLock { $0 = at }
            limiter.record(throttled: throttled)
            ours.append(limiter.allowedRate)
        }
        let script = """
            import json, sys
            from botocore.retries import adaptive, bucket, throttling
            class Clock:
                t = 1000.25
                def current_time(self): return self.t
            class Detector:
                def is_throttling_error(self, **kwargs): return kwargs['throttled']
            clock = Clock()
            limiter_bucket = bucket.TokenBucket(max_rate=1, clock=clock)
            limiter = adaptive.ClientRateLimiter(throttling.CubicCalculator(0, clock.current_time()), adaptive.RateClocker(clock),
                                                 limiter_bucket, Detector(), clock)
            rates = []
            for at, throttled in json.load(sys.stdin):
                clock.t = at
                limiter.on_receiving_response(throttled=throttled)
                rates.append(limiter_bucket.max_rate)
            print(json.dumps(rates))
            """
        let input = "[" + events.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]"
        let output = try PythonRunner.run(script: script, input: input)
        let theirs = try #require(try JSONValue(parsing: output).arrayDoubles)
        #expect(theirs.count == ours.count)
        for (index, (mine, botocore)) in zip(ours, theirs).enumerated() {
            #expect(abs(mine - botocore) < 1e-9, "event \(index): \(mine) vs botocore \(botocore)")
        }
    }

    @Test func clockSkewIsCorrectedFromTheDateHeaderAndTheRequestResent() async throws {
        // The server is one hour ahead of the client's (pinned) clock.
        let local = Date(timeIntervalSince1970: 1_800_000_000)
        let skewed = FakeHTTPServer.Action.respond(
            status: 400, headers: ["Date": "Fri, 15 Jan 2027 09:00:00 GMT"],
            body:
                #"{"__type":"com.amazon.coral.service#InvalidSignatureException","message":"Signature expired: 20270115T080000Z is now earlier than 20270115T084500Z (20270115T090000Z - 15 min.)"}"#
        )
        try await withFakeServer([skewed, .ok(), .ok()]) { server in
            let sleeps = SleepRecorder()
            var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: server.url, credentials: TestClients.credentials)
            configuration.sources = ConfigurationSources(environment: [:])
            configuration.retry = sleeps.retry()
            configuration.clock = { local }
            let client = try DynamoClient(configuration: configuration)
            _ = try await client.listTables(ListTablesInput())
            _ = try await client.listTables(ListTablesInput())
            let dates = server.requests.map { $0.headers["x-amz-date"] }
            #expect(dates == ["20270115T080000Z", "20270115T090000Z", "20270115T090000Z"])
            #expect(sleeps.recorded.isEmpty) // resent at once, not as a backed-off retry
            #expect(client.availableRetryTokens == 500)
        }
    }

    @Test func skewWithinToleranceOrOtherErrorsIsNotCorrected() throws {
        let skew = ClockSkew()
        let local = Date(timeIntervalSince1970: 1_800_000_000)
        let near = HTTPResponse(status: 400, headers: ["Date": "Fri, 15 Jan 2027 08:03:00 GMT"])
        #expect(!skew.learn(code: "InvalidSignatureException", response: near, localTime: local))
        let far = HTTPResponse(status: 400, headers: ["Date": "Fri, 15 Jan 2027 07:00:00 GMT"])
        #expect(!skew.learn(code: "ValidationException", response: far, localTime: local))
        #expect(skew.learn(code: "RequestTimeTooSkewed", response: far, localTime: local))
        #expect(skew.seconds == -3600)
        #expect(ClockSkew.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(ClockSkew.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 PST") == nil)
        #expect(ClockSkew.parseHTTPDate("Tue, 29 Feb 2028 23:59:59 GMT") == Date(timeIntervalSince1970: 1_835_481_599))
    }
}

extension JSONValue {
    /// The numbers of an array.
    var arrayDoubles: [Double]? {
        guard case .array(let items) = self else { return nil }
        let numbers = items.compactMap { item -> Double? in
            if case .number(let text) = item { return Double(text) }
            return nil
        }
        return numbers.count == items.count ? numbers : nil
    }
}

#if canImport(CCurl)
    /// `AWS_CA_BUNDLE` / `ca_bundle` reach libcurl as `CURLOPT_CAINFO`.
    struct CABundleTests {
        @Test func curlLoadsTheGivenCABundle() async throws {
            try await withFakeServer([.ok()]) { server in
                let request = HTTPRequest(method: "GET", url: "https://127.0.0.1:\(server.port)/")
                let error = await #expect(throws: TransportError.self) {
                    try await CurlTransport(maximumConnections: 1, caBundle: "/nonexistent/ca-bundle.pem")
                        .send(request, timeouts: HTTPTimeouts(connect: .seconds(2), request: .seconds(5)))
                }
                #expect(error?.description.contains("/nonexistent/ca-bundle.pem") == true)
                // Without it the handshake fails for another reason (the server speaks plain HTTP).
                let plain = await #expect(throws: TransportError.self) {
                    try await CurlTransport(maximumConnections: 1).send(request, timeouts: HTTPTimeouts(connect: .seconds(2), request: .seconds(5)))
                }
                #expect(plain?.description.contains("ca-bundle.pem") == false)
            }
        }
    }
#endif
