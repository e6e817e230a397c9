import DynamoClient
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The real `localdynamo` binary, started as a child process on a data directory, so a test can
/// kill it with SIGKILL (no shutdown, no flush) and start it again on the same files.
final class ServerProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `http://127.0.0.1:PORT`, read from the server's startup line.
    let endpoint: String
    private let process: Process

    private init(endpoint: String, process: Process) {
        self.endpoint = endpoint
        self.process = process
    }

    deinit { kill() }

    /// The binary: `$LOCALDYNAMO_BIN`, else `.build/debug/localdynamo` of this repository (built
    /// with the tests by `swift build --build-tests`).
    static func binary(filePath: String = #filePath) throws -> URL {
        if let path = ProcessInfo.processInfo.environment["LOCALDYNAMO_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // Tests/DynamoStoreTests/Support/ServerProcess.swift → the repository root.
        var root = URL(fileURLWithPath: filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let binary = root.appendingPathComponent(".build/debug/localdynamo")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(
                description: "no localdynamo binary at \(binary.path): run `swift build --build-tests` "
                    + "or set LOCALDYNAMO_BIN")
        }
        return binary
    }

    /// Starts `localdynamo serve --db-path directory --port 0` and waits for its
    /// `listening on http://HOST:PORT` line (at most 30 s; the process is killed after that).
    ///
    /// - Throws: ``Failure`` when the binary is missing or exits without that line.
    static func start(dataDirectory: URL) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["serve", "--db-path", dataDirectory.path, "--port", "0", "--log-level", "error"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessLaunching.run(process)
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            _ = Glibc.kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        let line = await firstLine(containing: "listening on http://", from: output.fileHandleForReading)
        guard let line, let start = line.range(of: "http://") else {
            _ = Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "localdynamo exited (\(process.terminationStatus)) without a listening line")
        }
        let url = line[start.lowerBound...].prefix { !$0.isWhitespace }
        return ServerProcess(endpoint: String(url), process: process)
    }

    /// Reads lines (blocking, off the cooperative pool) until one contains `marker` or the
    /// pipe ends.
    private static func firstLine(containing marker: String, from handle: FileHandle) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var buffer = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return continuation.resume(returning: nil) }
                    buffer.append(chunk)
                    let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
                    if let line = lines.first(where: { $0.contains(marker) }) {
                        return continuation.resume(returning: String(line))
                    }
                }
            }
        }
    }

    /// Kills the process with SIGKILL and waits for it: whatever it had not committed is lost.
    func kill() {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A client for this server that never retries (a killed server fails the call at once).
    func client() throws -> DynamoClient {
        var configuration = DynamoClient.Configuration(
            region: "us-east-1", endpoint: endpoint,
            credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
        configuration.retry = .disabled
        configuration.timeouts = HTTPTimeouts(connect: .seconds(2), request: .seconds(10))
        return try DynamoClient(configuration: configuration)
    }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("dynamostore-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
