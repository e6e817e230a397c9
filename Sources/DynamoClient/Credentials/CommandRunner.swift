#if os(macOS) || os(Linux)
    import Foundation

    /// Runs a program found on `PATH` and collects its exit status and both output streams, on
    /// threads of its own (the blocking reads never hold a Swift concurrency thread).
    ///
    /// Only on macOS and Linux: `Process` does not exist on iOS, tvOS, watchOS or visionOS.
    enum CommandRunner {
        struct Result: Sendable {
            var status: Int32
            var standardOutput: [UInt8]
            var standardError: [UInt8]
        }

        /// Runs `arguments[0]` with the rest as its arguments.
        ///
        /// - Throws: ``CredentialError`` when the program cannot be started.
        static func run(_ arguments: [String]) async throws -> Result {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = arguments
                    let output = Pipe()
                    let errors = Pipe()
                    process.standardOutput = output
                    process.standardError = errors
                    process.standardInput = FileHandle.nullDevice
                    do {
                        try process.run()
                    } catch {
                        continuation.resume(throwing: CredentialError("credential_process \(arguments[0]) could not be started: \(error)"))
                        return
                    }
                    let errorReader = ErrorReader(errors.fileHandleForReading)
                    errorReader.start()
                    let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(
                        returning: Result(
                            status: process.terminationStatus, standardOutput: Array(standardOutput),
                            standardError: errorReader.finish()))
                }
                thread.start()
            }
        }

        /// Reads a stream to its end on its own thread, so a command that writes much to standard
        /// error cannot block on a full pipe while its standard output is read.
        private final class ErrorReader: @unchecked Sendable {
            private let handle: FileHandle
            private let done = NSCondition()
            private var data: Data?

            init(_ handle: FileHandle) {
                self.handle = handle
            }

            func start() {
                Thread { [self] in
                    let read = handle.readDataToEndOfFile()
                    done.lock()
                    data = read
                    done.signal()
                    done.unlock()
                }.start()
            }

            func finish() -> [UInt8] {
                done.lock()
                while data == nil { done.wait() }
                defer { done.unlock() }
                return Array(data ?? Data())
            }
        }
    }
#endif
