#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Logging
import DynamoServer
import Synchronization

/// Delivers process signals to Swift code without losing any.
///
/// The handler is a plain C signal handler that writes the signal's number to a pipe (the one
/// thing a handler may safely do), and one thread reads the pipe and calls the subscribers.
/// This works whichever thread the kernel picks for a signal. A `DispatchSource` signal source
/// does not on Linux: libdispatch reads signals through a `signalfd`, which only sees a signal
/// if it stays pending, and a signal delivered to a thread that had not blocked it was lost
/// (about one `SIGTERM` in a hundred left the server running).
enum SignalRelay {
    private struct State {
        var subscribers: [Int32: [@Sendable (Int32) -> Void]] = [:]
        var readerStarted = false
    }

    private static let state = Mutex(State())

    /// The pipe's write end, for the handler (set once, before any handler is installed).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Calls `handler` on the relay's thread each time `signal` arrives, from now on; the
    /// signal no longer has its default action (ending the process).
    static func subscribe(_ number: Int32, _ handler: @escaping @Sendable (Int32) -> Void) {
        let readEnd: Int32? = state.withLock { state in
            var started: Int32?
            if !state.readerStarted {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { fatalError("localdynamo: no pipe for signals (errno \(errno))") }
                writeEnd = ends[1]
                state.readerStarted = true
                started = ends[0]
            }
            let first = state.subscribers[number] == nil
            state.subscribers[number, default: []].append(handler)
            if first { installHandler(for: number) }
            return started
        }
        if let readEnd { startReader(readEnd) }
    }

    private static func installHandler(for number: Int32) {
        _ = signal(number) { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(SignalRelay.writeEnd, &byte, 1)
            errno = saved
        }
    }

    private static func startReader(_ readEnd: Int32) {
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                let number = Int32(byte)
                for handler in state.withLock({ $0.subscribers[number] ?? [] }) { handler(number) }
            }
        }
        thread.name = "localdynamo-signals"
        thread.start()
    }
}

/// Turns SIGINT/SIGTERM into an awaitable event instead of killing the process.
final class SignalWaiter: Sendable {
    private let stream: AsyncStream<Int32>

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        for number in signals { SignalRelay.subscribe(number) { continuation.yield($0) } }
    }

    /// Waits for the first signal.
    func next() async -> Int32 {
        for await number in stream { return number }
        return 0
    }
}

/// Re-reads the credentials file on SIGHUP (`--require-auth`); a file that fails to parse is
/// logged and the identities stay as they were.
final class CredentialsReloader: Sendable {
    private let active = Atomic<Bool>(true)

    init(server: LocalDynamoServer, logger: Logger) {
        SignalRelay.subscribe(SIGHUP) { [weak self] _ in
            guard let self, self.active.load(ordering: .acquiring) else { return }
            do {
                let count = try server.reloadCredentials() ?? 0
                logger.info("reloaded the credentials file", metadata: ["identities": "\(count)"])
            } catch {
                logger.error("credentials file not reloaded; the previous identities stay", metadata: ["reason": "\(error)"])
            }
        }
    }

    /// Stops reloading (the server is shutting down).
    func cancel() { active.store(false, ordering: .releasing) }
}
