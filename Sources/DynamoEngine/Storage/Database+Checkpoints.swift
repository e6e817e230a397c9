import Logging
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Keeps the write-ahead log bounded under a steady stream of readers.
///
/// SQLite's automatic checkpoint (every 1,000 pages) is PASSIVE: it copies only the frames no
/// reader still needs and never waits, and the log restarts from its beginning only when a
/// checkpoint got through all of it. With many connections reading all the time (a soak of 64
/// clients) that never happens and the log grows without end (86 MiB in 30 seconds when
/// measured). So every ``interval`` commits the writer looks at the log's size, and past
/// ``limitBytes`` runs a TRUNCATE checkpoint, which waits (SQLite's busy handler, at most the
/// connection's busy timeout) for the readers of old snapshots, all short, to finish, then empties
/// the file. If it cannot finish it changes nothing and is tried again later; a client never
/// sees it but as a short pause of writes.
final class CheckpointPolicy: Sendable {
    /// Commits between two looks at the log's size (one `stat`).
    static let interval = 64
    /// The log size past which the writer checkpoints and truncates it.
    static let limitBytes: Int64 = 16 * 1024 * 1024

    private let commits = Atomic<Int>(0)

    /// Counts a commit; `true` every ``interval`` commits.
    func commitCounted() -> Bool {
        commits.wrappingAdd(1, ordering: .relaxed).newValue % Self.interval == 0
    }

    /// The size of the file at `path`, or 0 when there is none.
    static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}

extension Database {
    /// Called by the writer after a commit, under the writer's mutex (see ``CheckpointPolicy``).
    /// A commit made on an event loop (``writeNowIfIdle(_:)``) hands the checkpoint, which may
    /// wait for readers, to the writer thread.
    func checkpointIfLogIsLarge(_ state: borrowing WriterState) {
        guard let path, checkpoints.commitCounted(),
            CheckpointPolicy.fileSize(path + "-wal") > CheckpointPolicy.limitBytes
        else { return }
        if state.checkpointsOnWriterThread {
            writeQueue.run { self.writer.withLock { state in self.checkpoint(state.connection, path: path) } }
        } else {
            checkpoint(state.connection, path: path)
        }
    }

    /// Runs a TRUNCATE checkpoint on the writer's connection, under the writer's mutex.
    private func checkpoint(_ connection: SQLiteConnection, path: String) {
        // The writer's own statements stopped mid-result would hold a snapshot too.
        connection.releaseSnapshot()
        do {
            let statement = try connection.statement("PRAGMA wal_checkpoint(TRUNCATE)")
            defer { statement.reset() }
            _ = try statement.step()
            let busy = statement.int64(0) != 0
            logger.debug(
                "checkpointed the write-ahead log",
                metadata: [
                    "file": "\(path)", "complete": "\(!busy)", "frames": "\(statement.int64(1))",
                ])
        } catch {
            logger.warning("checkpoint failed", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }
}
