import AWSSigV4
import Testing
@testable import DynamoClient

/// Region and endpoint precedence, as the AWS SDKs resolve them.
struct ServiceLocationTests {
    static let home = "/home/tester"

    static func resolve(
        region: String? = nil, endpoint: String? = nil, streams: String? = nil,
        environment: [String: String] = [:], config: String = ""
    ) throws -> ServiceLocation {
        let sources = ConfigurationSources(
            environment: ["HOME": home].merging(environment) { $1 },
            files: ["\(home)/.aws/config": config])
        return try ServiceLocation(
            region: region, endpoint: endpoint, streamsEndpoint: streams,
            sources: sources, profile: SharedConfiguration(sources: sources))
    }

    static let config = """
        [default]
        region = eu-west-1
        services = local-services
        [profile plain]
        region = sa-east-1
        endpoint_url = http://plain:9000
        [services local-services]
        dynamodb =
          endpoint_url = http://services:8000
        dynamodb_streams =
          endpoint_url = http://streams:8001
        """

    @Test func regionPrecedence() throws {
        let all = ["AWS_REGION": "us-east-2", "AWS_DEFAULT_REGION": "ap-northeast-1"]
        #expect(try Self.resolve(region: "code-1", environment: all, config: Self.config).region == "code-1")
        #expect(try Self.resolve(environment: all, config: Self.config).region == "us-east-2")
        #expect(try Self.resolve(environment: ["AWS_DEFAULT_REGION": "ap-northeast-1"], config: Self.config).region == "ap-northeast-1")
        #expect(try Self.resolve(config: Self.config).region == "eu-west-1")
        #expect(try Self.resolve(environment: ["AWS_PROFILE": "plain"], config: Self.config).region == "sa-east-1")
        #expect(throws: DynamoClientError.missingRegion) { try Self.resolve() }
    }

    @Test func endpointPrecedence() throws {
        let environment = ["AWS_ENDPOINT_URL_DYNAMODB": "http://specific:1", "AWS_ENDPOINT_URL": "http://global:2"]
        #expect(try Self.resolve(endpoint: "http://code:3", environment: environment, config: Self.config).endpoint == "http://code:3/")
        #expect(try Self.resolve(environment: environment, config: Self.config).endpoint == "http://specific:1/")
        #expect(try Self.resolve(environment: ["AWS_ENDPOINT_URL": "http://global:2"], config: Self.config).endpoint == "http://global:2/")
        #expect(try Self.resolve(config: Self.config).endpoint == "http://services:8000/")
        #expect(try Self.resolve(environment: ["AWS_PROFILE": "plain"], config: Self.config).endpoint == "http://plain:9000/")
        #expect(try Self.resolve(region: "us-east-1").endpoint == "https://dynamodb.us-east-1.amazonaws.com/")
        #expect(try Self.resolve(region: "cn-north-1").endpoint == "https://dynamodb.cn-north-1.amazonaws.com.cn/")
    }

    @Test func ignoringConfiguredEndpoints() throws {
        let location = try Self.resolve(
            environment: [
                "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true",
                "AWS_ENDPOINT_URL": "http://global:2",
            ], config: Self.config)
        #expect(location.endpoint == "https://dynamodb.eu-west-1.amazonaws.com/")
        #expect(
            try Self.resolve(
                endpoint: "http://code:3", environment: ["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"],
                config: Self.config
            ).endpoint == "http://code:3/")
    }

    @Test func streamsEndpoints() throws {
        #expect(try Self.resolve(region: "us-west-2").streamsEndpoint == "https://streams.dynamodb.us-west-2.amazonaws.com/")
        #expect(try Self.resolve(region: "x", endpoint: "http://127.0.0.1:8000").streamsEndpoint == "http://127.0.0.1:8000/")
        #expect(try Self.resolve(region: "x", endpoint: "http://a:1", streams: "http://b:2").streamsEndpoint == "http://b:2/")
        #expect(
            try Self.resolve(environment: ["AWS_ENDPOINT_URL_DYNAMODB_STREAMS": "http://s:5"], config: Self.config)
                .streamsEndpoint == "http://s:5/")
        #expect(try Self.resolve(config: Self.config).streamsEndpoint == "http://streams:8001/")
    }

    @Test func invalidEndpoint() {
        #expect(throws: DynamoClientError.invalidEndpoint("localhost:8000")) {
            try Self.resolve(region: "x", endpoint: "localhost:8000")
        }
    }

    @Test func clientResolvesFromInjectedSources() throws {
        var configuration = DynamoClient.Configuration()
        configuration.sources = ConfigurationSources(
            environment: ["HOME": Self.home, "AWS_PROFILE": "plain"], files: ["\(Self.home)/.aws/config": Self.config])
        let client = try DynamoClient(configuration: configuration)
        #expect(client.region == "sa-east-1")
        #expect(client.endpoint == "http://plain:9000/")
    }
}

/// The shared-file dialect: sections, comments, sub-properties, the `[profile x]` rules.
struct ProfileFileTests {
    @Test func sectionsAndComments() {
        let file = ProfileFile(
            parsing: """
                ; leading comment
                [default]
                region = us-east-1 # trailing comment
                output=json#not a comment
                [profile dev] ; comment after section
                Region = eu-west-1
                [ profile   spaced ]
                region = ap-south-1
                [sso-session corp]
                sso_region = us-east-1
                """, kind: .config)
        #expect(file.profiles["default"] == ["region": "us-east-1", "output": "json#not a comment"])
        #expect(file.profiles["dev"] == ["region": "eu-west-1"])
        #expect(file.profiles["spaced"] == ["region": "ap-south-1"])
        #expect(file.profiles["corp"] == nil && file.profiles["sso-session corp"] == nil)
    }

    @Test func profileDefaultWinsOverDefault() {
        let first = ProfileFile(parsing: "[default]\nregion = a\n[profile default]\nregion = b\n", kind: .config)
        let second = ProfileFile(parsing: "[profile default]\nregion = b\n[default]\nregion = a\n", kind: .config)
        #expect(first.profiles["default"] == ["region": "b"])
        #expect(second.profiles["default"] == ["region": "b"])
    }

    @Test func subPropertiesAndContinuations() {
        let file = ProfileFile(
            parsing: """
                [services s]
                dynamodb =
                  endpoint_url = http://x:1
                  # comment inside
                [profile p]
                s3 =
                    max_concurrent_requests = 20
                long = first
                  second
                """, kind: .config)
        #expect(file.services["s"] == ["dynamodb": "", "dynamodb.endpoint_url": "http://x:1"])
        #expect(file.profiles["p"]?["s3.max_concurrent_requests"] == "20")
        #expect(file.profiles["p"]?["long"] == "first\nsecond")
    }

    @Test func credentialsFileTakesNamesLiterally() {
        let file = ProfileFile(parsing: "[profile x]\na = 1\n[y]\nb = 2\n", kind: .credentials)
        #expect(file.profiles["profile x"] == ["a": "1"])
        #expect(file.profiles["y"] == ["b": "2"])
    }
}
