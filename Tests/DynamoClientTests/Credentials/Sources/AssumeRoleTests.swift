import Foundation
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// Profiles with `role_arn`: STS `AssumeRole` over the Query protocol against a scripted STS.
struct AssumeRoleTests {
    static let config = """
        [profile reader]
        role_arn = arn:aws:iam::123456789012:role/reader
        source_profile = base
        role_session_name = nightly job
        external_id = ext-42
        duration_seconds = 1800
        [profile base]
        aws_access_key_id = AKIDBASE
        aws_secret_access_key = basesecret
        [profile top]
        role_arn = arn:aws:iam::210987654321:role/top
        source_profile = reader
        [profile loop-a]
        role_arn = arn:aws:iam::123456789012:role/a
        source_profile = loop-b
        [profile loop-b]
        role_arn = arn:aws:iam::123456789012:role/b
        source_profile = loop-a
        [profile self]
        role_arn = arn:aws:iam::123456789012:role/self
        source_profile = self
        aws_access_key_id = AKIDSELF
        aws_secret_access_key = selfsecret
        [profile from-env]
        role_arn = arn:aws:iam::123456789012:role/env
        credential_source = Environment
        [profile mfa]
        role_arn = arn:aws:iam::123456789012:role/mfa
        source_profile = base
        mfa_serial = arn:aws:iam::123456789012:mfa/me
        [profile both]
        role_arn = arn:aws:iam::123456789012:role/x
        source_profile = base
        credential_source = Environment
        [profile odd-source]
        role_arn = arn:aws:iam::123456789012:role/x
        credential_source = Laptop
        """

    static func provider(_ profile: String, server: FakeHTTPServer, environment: [String: String] = [:]) -> ProfileCredentialProvider {
        let sources = FakeAWS.sources(
            ["AWS_ENDPOINT_URL_STS": server.url, "AWS_REGION": "eu-west-1"].merging(environment) { $1 },
            files: ["\(FakeAWS.home)/.aws/config": config])
        return ProfileCredentialProvider(profile: profile, sources: sources, transport: TestTransport.defaultSocketTransport())
    }

    @Test func sourceProfileAssumesTheRoleWithSignedQueryRequest() async throws {
        try await withFakeServer([FakeAWS.stsAnswer()]) { server in
            let credentials = try await Self.provider("reader", server: server).resolveCredentials()
            #expect(
                credentials
                    == AWSCredentials(
                        accessKeyID: "ASIAROLE", secretAccessKey: "rolesecret", sessionToken: "roletoken",
                        expiration: Date(timeIntervalSince1970: 1_893_553_445), accountID: "123456789012"))
            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
            #expect(
                FakeAWS.form(request.body) == [
                    "Action": "AssumeRole", "Version": "2011-06-15", "RoleArn": "arn:aws:iam::123456789012:role/reader",
                    "RoleSessionName": "nightly job", "ExternalId": "ext-42", "DurationSeconds": "1800",
                ])
            #expect(request.body.contains("RoleSessionName=nightly%20job"))
            let authorization = try #require(request.headers["authorization"])
            #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDBASE/"))
            #expect(authorization.contains("/eu-west-1/sts/aws4_request"))
        }
    }

    @Test func chainOfSourceProfilesAssumesEachRoleWithThePreviousCredentials() async throws {
        try await withFakeServer([FakeAWS.stsAnswer(keyID: "ASIAFIRST"), FakeAWS.stsAnswer(keyID: "ASIATOP", accountID: "210987654321")]) { server in
            let credentials = try await Self.provider("top", server: server).resolveCredentials()
            #expect(credentials?.accessKeyID == "ASIATOP")
            #expect(credentials?.accountID == "210987654321")
            #expect(server.requests.count == 2)
            #expect(server.requests[0].headers["authorization"]?.contains("Credential=AKIDBASE/") == true)
            #expect(server.requests[1].headers["authorization"]?.contains("Credential=ASIAFIRST/") == true)
            #expect(server.requests[1].headers["x-amz-security-token"] == "roletoken")
            #expect(FakeAWS.form(server.requests[1].body)["RoleArn"] == "arn:aws:iam::210987654321:role/top")
        }
    }

    @Test func cycleIsRefusedWithoutCallingSTS() async throws {
        try await withFakeServer([FakeAWS.stsAnswer()]) { server in
            let error = await #expect(throws: CredentialError.self) {
                try await Self.provider("loop-a", server: server).resolveCredentials()
            }
            #expect(error?.message == "source_profile cycle: loop-a -> loop-b -> loop-a")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func selfReferenceUsesTheProfilesOwnKeys() async throws {
        try await withFakeServer([FakeAWS.stsAnswer()]) { server in
            _ = try await Self.provider("self", server: server).resolveCredentials()
            #expect(server.requests.first?.headers["authorization"]?.contains("Credential=AKIDSELF/") == true)
        }
    }

    @Test func credentialSourceEnvironment() async throws {
        try await withFakeServer([FakeAWS.stsAnswer()]) { server in
            let provider = Self.provider(
                "from-env", server: server,
                environment: ["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "envsecret"])
            let assumed = try await provider.resolveCredentials()
            #expect(assumed?.accessKeyID == "ASIAROLE")
            #expect(server.requests.first?.headers["authorization"]?.contains("Credential=AKIDENV/") == true)
            // The session name defaults to the SDKs' form.
            #expect(FakeAWS.form(server.requests.first?.body ?? "")["RoleSessionName"]?.hasPrefix("dynamoclient-session-") == true)
        }
    }

    @Test(arguments: [
        ("mfa", "mfa_serial"), ("both", "both source_profile and credential_source"),
        ("odd-source", "credential_source = Laptop"),
    ])
    func refusedConfigurations(profile: String, expected: String) async throws {
        try await withFakeServer([FakeAWS.stsAnswer()]) { server in
            let error = await #expect(throws: CredentialError.self) { try await Self.provider(profile, server: server).resolveCredentials() }
            #expect(error?.message.contains(expected) == true)
            #expect(server.requests.isEmpty)
        }
    }

    @Test(arguments: [
        (403, "AccessDenied", "User: arn:aws:iam::123456789012:user/base is not authorized to perform: sts:AssumeRole"),
        (400, "ExpiredToken", "The security token included in the request is expired"),
    ])
    func stsErrorsCarryCodeAndMessage(status: Int, code: String, message: String) async throws {
        try await withFakeServer([FakeAWS.stsError(status, code, message)]) { server in
            let error = await #expect(throws: CredentialError.self) { try await Self.provider("reader", server: server).resolveCredentials() }
            #expect(error?.message == "STS AssumeRole failed: \(code): \(message)")
        }
    }

    @Test func stsEndpointResolution() {
        func endpoint(_ environment: [String: String], config: String = "") -> (String, String) {
            let sources = FakeAWS.sources(environment, files: ["\(FakeAWS.home)/.aws/config": config])
            let sts = STSClient(sources: sources, profile: SharedConfiguration(sources: sources), transport: TestTransport.defaultSocketTransport())
            return (sts.endpoint, sts.region)
        }
        #expect(endpoint(["AWS_REGION": "eu-west-1"]) == ("https://sts.eu-west-1.amazonaws.com/", "eu-west-1"))
        #expect(endpoint([:]) == ("https://sts.amazonaws.com/", "us-east-1"))
        #expect(endpoint(["AWS_REGION": "cn-north-1"]) == ("https://sts.cn-north-1.amazonaws.com.cn/", "cn-north-1"))
        #expect(endpoint(["AWS_REGION": "us-east-2", "AWS_USE_FIPS_ENDPOINT": "true"]) == ("https://sts-fips.us-east-2.amazonaws.com/", "us-east-2"))
        #expect(endpoint(["AWS_REGION": "us-east-2", "AWS_ENDPOINT_URL_STS": "http://localhost:4566"]) == ("http://localhost:4566/", "us-east-2"))
        let services = "[default]\nregion = ap-south-1\nservices = local\n[services local]\nsts =\n  endpoint_url = http://sts.internal:8080\n"
        #expect(endpoint([:], config: services) == ("http://sts.internal:8080/", "ap-south-1"))
    }

    @Test func tinyXMLReadsWhatSTSSends() {
        let xml = TinyXML(
            """
            <?xml version="1.0"?><!-- note --><R><A attr="1">x &amp; y &lt;z&gt; &#65;&#x42;</A><B/><C><![CDATA[<raw>]]></C>
            <AB>wrong</AB><Outer><A>inner</A></Outer></R>
            """)
        #expect(xml.text(of: "A") == "x & y <z> AB")
        #expect(xml.text(of: "B") == "")
        #expect(xml.text(of: "C") == "<raw>")
        #expect(xml.text(of: "A", inside: "Outer") == "inner")
        #expect(xml.text(of: "Missing") == nil)
        #expect(STSClient.accountID(ofARN: "arn:aws:sts::123456789012:assumed-role/r/s") == "123456789012")
        #expect(STSClient.accountID(ofARN: "not-an-arn") == nil)
    }

    @Test func motoSTSAnswersAreRead() async throws {
        try await MotoServer.with { url in
            let sources = FakeAWS.sources(["AWS_ENDPOINT_URL_STS": url, "AWS_REGION": "us-east-1"])
            let assume = AssumeRoleCredentialProvider(
                roleARN: "arn:aws:iam::123456789012:role/moto", source: StaticCredentialProvider(TestClients.credentials),
                sessionName: "moto-session", durationSeconds: 900, sources: sources, transport: TestTransport.defaultSocketTransport())
            let credentials = try #require(try await assume.resolveCredentials())
            #expect(credentials.accessKeyID.hasPrefix("ASIA"))
            #expect(credentials.sessionToken?.isEmpty == false)
            #expect(credentials.accountID == "123456789012")
            #expect(credentials.expiration != nil)
        }
    }
}
