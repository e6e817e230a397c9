@testable import AWSNeighbours
import AWSSigV4
import Foundation
import Testing

/// How `serve` finds S3 and Kinesis and the keys to sign with, the way AWS SDKs do.
struct NeighbourSettingsTests {
    @Test func flagsWinOverServiceVariablesWhichWinOverTheGeneralOne() throws {
        let environment = ["AWS_ENDPOINT_URL": "http://127.0.0.1:1", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:2/"]
        let fromEnvironment = try NeighbourSettings(
            s3Endpoint: nil, kinesisEndpoint: nil, s3VirtualHosted: false,
            profile: nil, environment: environment)
        #expect(fromEnvironment.s3Endpoint == "http://127.0.0.1:2")
        #expect(fromEnvironment.kinesisEndpoint == "http://127.0.0.1:1")
        let fromFlags = try NeighbourSettings(
            s3Endpoint: "http://localhost:3", kinesisEndpoint: "http://localhost:4",
            s3VirtualHosted: true, profile: nil, environment: environment)
        #expect(fromFlags.s3Endpoint == "http://localhost:3" && fromFlags.kinesisEndpoint == "http://localhost:4")
        #expect(fromFlags.s3VirtualHosted)
    }

    @Test func noEndpointMeansNoNeighbours() throws {
        let settings = try NeighbourSettings(
            s3Endpoint: nil, kinesisEndpoint: nil, s3VirtualHosted: false,
            profile: nil, environment: [:])
        #expect(settings.s3Endpoint == nil && settings.kinesisEndpoint == nil && settings.credentials == nil)
    }

    @Test func credentialsComeFromTheEnvironmentThenTheProfileThenLoopbackTestKeys() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("credentials").path
        try
            "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = d\n[ci]\naws_access_key_id = CIKEY\naws_secret_access_key = c # note\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        func keys(_ environment: [String: String], profile: String? = nil, endpoint: String = "http://127.0.0.1:9") throws -> String? {
            try NeighbourSettings(
                s3Endpoint: endpoint, kinesisEndpoint: nil, s3VirtualHosted: false, profile: profile,
                environment: environment
            ).credentials?.accessKeyID
        }
        let withFile = ["AWS_SHARED_CREDENTIALS_FILE": file, "HOME": directory.path]
        #expect(try keys(withFile.merging(["AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "e"]) { $1 }) == "ENVKEY")
        #expect(try keys(withFile) == "DEFAULTKEY")
        #expect(try keys(withFile.merging(["AWS_PROFILE": "ci"]) { $1 }) == "CIKEY")
        #expect(try keys(withFile, profile: "ci") == "CIKEY")
        #expect(throws: NeighbourSettingsError.self) { try keys(withFile, profile: "missing") }
        let empty = ["HOME": directory.path + "/nowhere"]
        #expect(try keys(empty) == NeighbourSettings.testCredentials.accessKeyID)
        #expect(throws: NeighbourSettingsError.self) { try keys(empty, endpoint: "https://s3.example.com") }
    }

    @Test func anEndpointMustBeHTTP() {
        #expect(throws: NeighbourSettingsError.self) {
            try NeighbourSettings(
                s3Endpoint: "s3.example.com", kinesisEndpoint: nil, s3VirtualHosted: false,
                profile: nil, environment: [:])
        }
    }

    @Test func s3URLsArePathStyleOrVirtualHosted() throws {
        let settings = try NeighbourSettings(
            s3Endpoint: "http://127.0.0.1:9000", kinesisEndpoint: nil,
            s3VirtualHosted: false, profile: nil, environment: [:])
        let store = S3ObjectStore(settings: settings, endpoint: "http://127.0.0.1:9000")
        #expect(store.url(bucket: "b", key: "a dir/x+y.json", query: nil) == "http://127.0.0.1:9000/b/a%20dir/x%2By.json")
        #expect(store.url(bucket: "b", key: nil, query: "list-type=2") == "http://127.0.0.1:9000/b?list-type=2")
        var hosted = settings
        hosted.s3VirtualHosted = true
        let virtual = S3ObjectStore(settings: hosted, endpoint: "http://s3.local:9000")
        #expect(virtual.url(bucket: "b", key: "k", query: nil) == "http://b.s3.local:9000/k")
    }

    @Test func xmlTextDecodesEntities() {
        let text = "<R><Key>a&amp;b&lt;c&#x41;&#66;</Key><Key>plain</Key><IsTruncated>false</IsTruncated></R>"
        #expect(XMLText.all("Key", in: text) == ["a&b<cAB", "plain"])
        #expect(XMLText.first("IsTruncated", in: text) == "false")
        #expect(XMLText.first("Missing", in: text) == nil)
    }
}
