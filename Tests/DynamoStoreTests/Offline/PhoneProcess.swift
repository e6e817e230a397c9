import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The `offline-phone` executable (Tests/OfflinePhone) as a child process: commands go to its
/// standard input, its answers come back line by line, and the test kills it with SIGKILL.
final class PhoneProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process: Process
    private let input: FileHandle
    private var lines: AsyncStream<String>.Iterator

    /// The binary, built with the tests: beside the test bundle (any build configuration or
    /// path), else `.build/debug/offline-phone` of this repository.
    static func binary(filePath: String = #filePath) throws -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("offline-phone")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        // Tests/DynamoStoreTests/Offline/PhoneProcess.swift → the repository root.
        var root = URL(fileURLWithPath: filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let binary = root.appendingPathComponent(".build/debug/offline-phone")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "no offline-phone binary beside \(beside.path) or at \(binary.path): run `swift build --build-tests`")
        }
        return binary
    }

    /// Starts the phone on a server, an offline file and a merge policy.
    init(endpoint: String, file: String, policy: String) throws {
        // A command written to a phone that just died must fail the write, not kill the tests.
        _ = signal(SIGPIPE, SIG_IGN)
        let process = Process()
        self.process = process
        process.executableURL = try Self.binary()
        process.arguments = [endpoint, file, policy]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try ProcessLaunching.run(process)
        input = stdin.fileHandleForWriting
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let handle = stdout.fileHandleForReading
        DispatchQueue.global().async {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer = Data(buffer[buffer.index(after: newline)...])
                }
            }
            continuation.finish()
        }
        lines = stream.makeAsyncIterator()
    }

    deinit { kill() }

    /// Sends one command line (ignored when the phone is dead).
    func send(_ line: String) {
        try? input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The lines the phone printed until its answer to a command (`ok N` or `error N …`,
    /// returned last), or `nil` as the answer when it died first. With `stop`, a line starting
    /// with it ends the wait too, as the answer (the phone held at a request, say).
    func answer(orLineStartingWith stop: String? = nil) async -> (lines: [String], answer: String?) {
        var printed: [String] = []
        while let line = await lines.next() {
            if line.hasPrefix("ok ") || line.hasPrefix("error ") { return (printed, line) }
            if let stop, line.hasPrefix(stop) { return (printed, line) }
            printed.append(line)
        }
        return (printed, nil)
    }

    /// Sends a command and waits for its answer.
    func run(_ line: String) async -> (lines: [String], answer: String?) {
        send(line)
        return await answer()
    }

    /// Kills the phone with SIGKILL and waits for it.
    func kill() {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for a phone that killed itself.
    func waitForExit() {
        process.waitUntilExit()
    }
}

/// Child processes of the store's tests start one at a time: Foundation's `Process.run()` on
/// Linux crashed (in a memcpy) when many were launched from parallel tests at once.
enum ProcessLaunching {
    private static let lock = Mutex(())

    static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
