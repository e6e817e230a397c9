import Foundation
import Synchronization

/// Saves the input being run when it crashes the process or runs past the time limit.
///
/// The input is copied into a fixed buffer before each run; a fatal signal's handler (only
/// async-signal-safe calls: `open`, `write`, `close`, `signal`, `raise`) writes it to
/// `<findings>/crash-<target>.bin`, and a watchdog thread writes `hang-<target>.bin` and exits
/// with status 3 when one input takes longer than the limit.
enum CrashGuard {
    nonisolated(unsafe) private static var buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: Mutator.maximumSize * 2,
        alignment: 1)
    nonisolated(unsafe) private static var length = 0
    nonisolated(unsafe) private static var crashPath: UnsafeMutablePointer<CChar>?
    private static let startedAt = Atomic<UInt64>(0)

    /// Installs the handlers and starts the watchdog for `target`'s inputs.
    static func install(findings: String, target: String, timeLimitMilliseconds: UInt64) {
        try? FileManager.default.createDirectory(atPath: findings, withIntermediateDirectories: true)
        crashPath = strdup("\(findings)/crash-\(target).bin")
        for signalNumber in [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE] {
            signal(signalNumber) { received in
                if let path = CrashGuard.crashPath { CrashGuard.save(to: path) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        let hangPath = "\(findings)/hang-\(target).bin"
        let thread = Thread {
            while true {
                usleep(50_000)
                let started = startedAt.load(ordering: .acquiring)
                guard started != 0, now() - started > timeLimitMilliseconds * 1_000_000 else { continue }
                hangPath.withCString { save(to: $0) }
                FileHandle.standardError.write(
                    Data(
                        "localdynamo-fuzz: \(target): an input ran longer than \(timeLimitMilliseconds) ms; saved to \(hangPath)\n".utf8))
                exit(3)
            }
        }
        thread.start()
    }

    /// Records `input` as the one running now.
    static func begin(_ input: [UInt8]) {
        length = min(input.count, buffer.count)
        input.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
        startedAt.store(now(), ordering: .releasing)
    }

    /// The input finished.
    static func end() { startedAt.store(0, ordering: .releasing) }

    private static func save(to path: UnsafePointer<CChar>) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, buffer.baseAddress, length)
        close(descriptor)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
