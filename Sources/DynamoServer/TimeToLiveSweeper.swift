import DynamoEngine
import Logging
import NIOPosix
import Synchronization

/// Runs the engine's TTL sweeper every `interval` seconds of real time on the database thread
/// pool (never on an event loop), until stopped. Which items have expired is decided on the
/// server's clock; the interval only says how often to look (`serve --ttl-interval`).
final class TimeToLiveSweeper: Sendable {
    private let engine: DynamoEngine
    private let threadPool: NIOThreadPool
    private let interval: Double
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(engine: DynamoEngine, threadPool: NIOThreadPool, interval: Double, logger: Logger) {
        self.engine = engine
        self.threadPool = threadPool
        self.interval = interval
        self.logger = logger
    }

    /// Starts sweeping (nothing happens when the interval is 0).
    func start() {
        guard interval > 0 else { return }
        let engine = engine, threadPool = threadPool, interval = interval, logger = logger
        let running = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int64(interval * 1000)))
                if Task.isCancelled { break }
                do {
                    let deleted = try await threadPool.runIfActive { try engine.sweepExpiredItems() }
                    if deleted > 0 { logger.debug("TTL sweep", metadata: ["deleted": "\(deleted)"]) }
                } catch is CancellationError {
                    // The thread pool stopped under a due pass (the server is shutting down).
                    break
                } catch {
                    logger.error("TTL sweep failed", metadata: ["error": "\(error)"])
                }
            }
        }
        task.withLock { $0 = running }
    }

    /// Stops sweeping and waits for a running sweep to finish.
    func stop() async {
        guard
            let running = task.withLock({ current -> Task<Void, Never>? in
                defer { current = nil }
                return current
            })
        else { return }
        running.cancel()
        await running.value
    }
}
