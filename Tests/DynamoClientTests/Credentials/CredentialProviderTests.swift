import Foundation
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// The credential providers with injected environments and files; the machine's own
/// environment and `~/.aws` are never read.
struct CredentialProviderTests {
    static let home = "/home/tester"

    static func sources(_ environment: [String: String] = [:], files: [String: String] = [:]) -> ConfigurationSources {
        ConfigurationSources(environment: ["HOME": home].merging(environment) { $1 }, files: files)
    }

    @Test func environmentCredentials() async throws {
        let provider = EnvironmentCredentialProvider(
            sources: Self.sources([
                "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "envsecret", "AWS_SESSION_TOKEN": "envtoken",
            ]))
        #expect(
            try await provider.resolveCredentials()
                == AWSCredentials(accessKeyID: "AKIDENV", secretAccessKey: "envsecret", sessionToken: "envtoken"))
        #expect(try await EnvironmentCredentialProvider(sources: Self.sources()).resolveCredentials() == nil)
        await #expect(throws: CredentialError.self) {
            try await EnvironmentCredentialProvider(sources: Self.sources(["AWS_ACCESS_KEY_ID": "x"])).resolveCredentials()
        }
    }

    static let credentialsFile = """
        # shared credentials
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = defaultsecret ; an inline comment
        [dev]
        aws_access_key_id=AKIDDEV
        aws_secret_access_key=devsecret
        aws_session_token = devtoken
        [profile literal]
        aws_access_key_id = AKIDLITERAL
        aws_secret_access_key = literalsecret
        """

    static let configFile = """
        [default]
        region = us-west-2
        [profile dev]
        region = eu-central-1
        aws_access_key_id = AKIDFROMCONFIG
        aws_secret_access_key = ignoredsecret
        [profile onlyconfig]
        aws_access_key_id = AKIDCONFIG
        aws_secret_access_key = configsecret
        [notaprofile]
        aws_access_key_id = AKIDWRONG
        aws_secret_access_key = wrong
        [profile assumer]
        role_arn = arn:aws:iam::123456789012:role/x
        source_profile = nosuchprofile
        """

    static var files: [String: String] {
        ["\(home)/.aws/credentials": credentialsFile, "\(home)/.aws/config": configFile]
    }

    @Test(
        arguments: [
            (nil, "AKIDDEFAULT", "defaultsecret", nil),
            ("dev", "AKIDDEV", "devsecret", "devtoken"), // credentials file wins over config
            ("onlyconfig", "AKIDCONFIG", "configsecret", nil), // [profile x] in config
            ("profile literal", "AKIDLITERAL", "literalsecret", nil), // credentials file takes names literally
        ] as [(String?, String, String, String?)])
    func profileCredentials(profile: String?, keyID: String, secret: String, token: String?) async throws {
        let environment = profile.map { ["AWS_PROFILE": $0] } ?? [:]
        let provider = ProfileCredentialProvider(sources: Self.sources(environment, files: Self.files))
        #expect(
            try await provider.resolveCredentials()
                == AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: token))
    }

    @Test func profileErrorsAndAbsence() async throws {
        // `[notaprofile]` in the config file is not a profile (it lacks the `profile ` prefix).
        await #expect(throws: CredentialError.self) {
            try await ProfileCredentialProvider(profile: "notaprofile", sources: Self.sources(files: Self.files)).resolveCredentials()
        }
        await #expect(throws: CredentialError.self) {
            try await ProfileCredentialProvider(profile: "assumer", sources: Self.sources(files: Self.files)).resolveCredentials()
        }
        // No files and no explicit profile: not configured.
        #expect(try await ProfileCredentialProvider(sources: Self.sources()).resolveCredentials() == nil)
    }

    @Test func filePathsFromEnvironment() async throws {
        let sources = Self.sources(
            [
                "AWS_SHARED_CREDENTIALS_FILE": "/etc/creds", "AWS_CONFIG_FILE": "/etc/conf", "AWS_PROFILE": "ci",
            ],
            files: [
                "/etc/creds": "[ci]\naws_access_key_id = AKIDCI\n",
                "/etc/conf": "[profile ci]\naws_secret_access_key = cisecret\nregion = ap-south-1\n",
            ])
        #expect(
            try await ProfileCredentialProvider(sources: sources).resolveCredentials()
                == AWSCredentials(accessKeyID: "AKIDCI", secretAccessKey: "cisecret"))
        #expect(SharedConfiguration(sources: sources)["region"] == "ap-south-1")
    }

    @Test func chainOrderEnvironmentBeforeProfile() async throws {
        let transport = DynamoClient.defaultTransport(maximumConnections: 1)
        let withEnvironment = Self.sources(
            [
                "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s", "AWS_EC2_METADATA_DISABLED": "true",
            ], files: Self.files)
        #expect(
            try await CredentialProviderChain.default(sources: withEnvironment, transport: transport)
                .resolveCredentials()?.accessKeyID == "AKIDENV")
        let withoutEnvironment = Self.sources(["AWS_EC2_METADATA_DISABLED": "true"], files: Self.files)
        #expect(
            try await CredentialProviderChain.default(sources: withoutEnvironment, transport: transport)
                .resolveCredentials()?.accessKeyID == "AKIDDEFAULT")
        let nothing = Self.sources(["AWS_EC2_METADATA_DISABLED": "true"])
        #expect(try await CredentialProviderChain.default(sources: nothing, transport: transport).resolveCredentials() == nil)
    }

    static let document = """
        {"Code":"Success","AccessKeyId":"ASIATEMP","SecretAccessKey":"tempsecret","Token":"temptoken",
         "Expiration":"2030-01-02T03:04:05Z"}
        """

    @Test func containerFullURIWithTokenFile() async throws {
        try await withFakeServer([.respond(status: 200, body: Self.document, crc: .absent)]) { server in
            let sources = Self.sources(
                [
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:\(server.port)/creds",
                    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "/var/run/token",
                    "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ignored",
                ], files: ["/var/run/token": "filetoken\n"])
            let credentials = try await ContainerCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport())
                .resolveCredentials()
            #expect(
                credentials
                    == AWSCredentials(
                        accessKeyID: "ASIATEMP", secretAccessKey: "tempsecret", sessionToken: "temptoken",
                        expiration: Date(timeIntervalSince1970: 1_893_553_445)))
            #expect(server.requests.first?.path == "/creds")
            #expect(server.requests.first?.headers["authorization"] == "filetoken")
        }
    }

    @Test func containerRejectsPlainHTTPToOtherHosts() async throws {
        let sources = Self.sources(["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://example.com/creds"])
        await #expect(throws: CredentialError.self) {
            try await ContainerCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport()).resolveCredentials()
        }
        #expect(
            try await ContainerCredentialProvider(sources: Self.sources(), transport: TestTransport.defaultSocketTransport()).resolveCredentials()
                == nil)
    }

    @Test func instanceMetadataV2() async throws {
        try await withFakeServer([
            .respond(status: 200, body: "session-token", crc: .absent),
            .respond(status: 200, body: "my-role\n", crc: .absent),
            .respond(status: 200, body: Self.document, crc: .absent),
        ]) { server in
            let sources = Self.sources(["AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(server.port)/"])
            let credentials = try await InstanceMetadataCredentialProvider(sources: sources, transport: TestTransport.defaultSocketTransport())
                .resolveCredentials()
            #expect(credentials?.accessKeyID == "ASIATEMP")
            let requests = server.requests
            #expect(requests.map(\.method) == ["PUT", "GET", "GET"])
            #expect(
                requests.map(\.path) == [
                    "/latest/api/token", "/latest/meta-data/iam/security-credentials/",
                    "/latest/meta-data/iam/security-credentials/my-role",
                ])
            #expect(requests[0].headers["x-aws-ec2-metadata-token-ttl-seconds"] == "21600")
            #expect(requests[1].headers["x-aws-ec2-metadata-token"] == "session-token")
            #expect(requests[2].headers["x-aws-ec2-metadata-token"] == "session-token")
        }
    }

    @Test func instanceMetadataDisabledOrUnreachable() async throws {
        let disabled = Self.sources(["AWS_EC2_METADATA_DISABLED": "true"])
        #expect(
            try await InstanceMetadataCredentialProvider(sources: disabled, transport: TestTransport.defaultSocketTransport()).resolveCredentials()
                == nil)
        try await withRefusingPort { (port: Int) async throws -> Void in
            let unreachable = Self.sources(["AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(port)"])
            #expect(
                try await InstanceMetadataCredentialProvider(sources: unreachable, transport: TestTransport.defaultSocketTransport())
                    .resolveCredentials() == nil)
        }
    }

    @Test func metadataErrorDocumentIsReported() {
        #expect(throws: CredentialError.self) {
            try CredentialsDocument.decode(Array(#"{"Code":"AccessDenied","Message":"no"}"#.utf8), source: "test")
        }
    }
}
