import Foundation
@testable import DynamoServer
import Testing

/// `/console` over a real socket: the embedded files as they are in `console/`, their headers,
/// and the paths and methods that are not the console's.
@Suite struct ConsoleRouteTests {
    static let consoleDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("console")

    func get(_ path: String, method: String = "GET", port: Int) async throws -> TestHTTPResponse {
        let client = try TestHTTPClient(port: port)
        try await client.send("\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        return try await client.readResponse(expectingBody: method != "HEAD")
    }

    static func filesOnDisk() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: consoleDirectory.path).sorted()
    }

    @Test func everyFileIsServedAsItIsOnDisk() async throws {
        let names = try Self.filesOnDisk()
        #expect(names.contains("index.html") && names.contains("app.js"))
        #expect(Set(ConsoleAssets.embedded.map(\.name)) == Set(names), "regenerate with scripts/generate-console.py")
        try await withHTTPTestServer { _, port in
            for name in names {
                let response = try await get("/console/\(name)", port: port)
                let onDisk = try [UInt8](Data(contentsOf: Self.consoleDirectory.appendingPathComponent(name)))
                #expect(response.status == 200, "\(name)")
                #expect(response.body == onDisk, "console/\(name) differs from the embedded copy: run scripts/generate-console.py")
                #expect(response.header("Cache-Control") == "no-cache")
                #expect(response.header("X-Content-Type-Options") == "nosniff")
                #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
            }
        }
    }

    @Test(arguments: [
        ("/console", "text/html"), ("/console/", "text/html"), ("/console?tab=items", "text/html"),
        ("/console/app.js", "text/javascript"), ("/console/console.css", "text/css"),
    ])
    func contentTypes(path: String, type: String) async throws {
        try await withHTTPTestServer { _, port in
            let response = try await get(path, port: port)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "\(type); charset=utf-8")
        }
    }

    @Test func headAnswersTheHeadersOnly() async throws {
        try await withHTTPTestServer { _, port in
            let full = try await get("/console", port: port)
            let head = try await get("/console", method: "HEAD", port: port)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(full.body.count))
        }
    }

    @Test func unknownFilesAndOtherPathsAreNotServed() async throws {
        try await withHTTPTestServer { _, port in
            let missing = try await get("/console/missing.js", port: port)
            #expect(missing.status == 404)
            #expect(missing.header("Content-Type") == "text/plain; charset=utf-8")
            let beside = try await get("/consoles", port: port)
            #expect(beside.status == 404)
            #expect(beside.text == "<UnknownOperationException/>\n")
        }
    }

    @Test func aDynamoDBCallToTheConsolePathIsStillADynamoDBCall() async throws {
        // DynamoDB never looks at the path of a POST; neither does the console route.
        try await withHTTPTestServer { _, port in
            let client = try TestHTTPClient(port: port)
            try await client.send(TestRequest.make(path: "/console", body: #"{"TableName":"t"}"#))
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/x-amz-json-1.0")
        }
    }

    @Test func thePageLoadsNothingFromElsewhere() throws {
        for name in try Self.filesOnDisk() {
            let text = try String(contentsOf: Self.consoleDirectory.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("https://") && !text.contains("http://"), "console/\(name) refers to another site")
            // Every module it imports is one of the console's own files.
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                guard let start = line.range(of: "\"./"), let end = line[start.upperBound...].firstIndex(of: "\"") else {
                    Issue.record("console/\(name): an import from outside console/: \(line)")
                    continue
                }
                let imported = String(line[start.upperBound..<end])
                #expect(try Self.filesOnDisk().contains(imported), "console/\(name) imports missing \(imported)")
            }
        }
    }
}
