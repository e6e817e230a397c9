import Foundation
import Synchronization

/// Runs `python3` with a script and standard input, for the cross-checks against botocore.
enum PythonRunner {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `python3 -c script` with `input` on standard input and returns standard output.
    ///
    /// - Throws: ``Failure`` with standard error when python exits non-zero.
    static func run(script: String, input: String, arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Standard input is written and standard error read on threads of their own: a script
        // that answers line by line fills the output pipe before a long input is written.
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let errorsRead = Mutex(Data())
        DispatchQueue.global().async(group: done) {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errorsRead.withLock { $0 = data }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        let errors = errorsRead.withLock { $0 }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
