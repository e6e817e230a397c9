import Foundation

/// A `localdynamo` started by the example: in memory, on a free port, stopped at the end.
final class LocalServer {
    let process = Process()
    let endpoint: String

    /// Starts the `localdynamo` found beside this executable (as `swift build` puts it) or on
    /// the `PATH`, and reads the port from its startup line.
    init() throws {
        guard let binary = Self.findBinary() else {
            throw ExampleError(
                "no localdynamo binary beside \(CommandLine.arguments[0]) or on PATH; build it with `swift build` or pass --endpoint URL")
        }
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--in-memory", "--port", "0", "--log-level", "warning"]
        process.standardOutput = output
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw ExampleError("localdynamo exited before it listened") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) else {
            process.terminate()
            throw ExampleError("unexpected startup line: \(text)")
        }
        endpoint = String(text[range])
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    private static func findBinary() -> String? {
        let fileManager = FileManager.default
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("localdynamo").path
        if fileManager.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/localdynamo"
            if fileManager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// A failure of the example, with what to do.
struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
