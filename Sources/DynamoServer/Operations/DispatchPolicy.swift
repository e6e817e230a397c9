/// Where operations' engine calls run: the event-loop policy of docs/architecture.md
/// ("Dispatch"). Each operation's row says where it runs (``RowPlacement``);
/// `EngineDispatcher` follows it on every path.
///
/// The rule: an event loop serves every connection assigned to it, so it only runs work that is
/// bounded and never waits for a write — point reads and a page of reads under WAL, lookups in
/// memory (measured cheaper than a hop to another thread). Item writes to a file go to the
/// namespace's writer thread, which commits the writes queued meanwhile together and answers each
/// only after its commit (`Database.enqueueWrite`), unless the writer is idle: then there is no
/// group to join and the write runs on the loop (`Database.writeNowIfIdle`, never waiting for the
/// lock). In memory, where a commit does no I/O, an item write is as bounded as the reads beside
/// it and runs on the loop under the same lock. Everything else — scans, table and index work,
/// backups, exports, PartiQL other than a SELECT by key, DynamoDB Streams reads — runs on the
/// request thread pool.
enum DispatchPolicy {
    /// Where an engine call runs.
    enum Placement: Sendable, Equatable {
        /// Right on the connection's event loop, answered synchronously.
        case eventLoop
        /// On the namespace's writer thread, in a group commit.
        case writer
        /// On the event loop when the namespace's writer is idle (nothing queued or running,
        /// its lock free), else on the writer thread like ``writer``.
        case eventLoopIfWriterIdle
        /// On the request thread pool.
        case pool
    }

    /// How the engine keeps its databases, which decides where item writes run.
    enum Storage: Sendable, CaseIterable {
        /// In memory: item writes run on the loop (``Placement/eventLoop``). A commit does no
        /// I/O, so there is nothing for a group to share, and the hop to the writer thread and
        /// back cost more than the write (same-run A/B: PutItem 129 → 77 µs of CPU at one
        /// connection, the 80/20 mix 81 → 72 µs at eight). The work is bounded as a read's is:
        /// one item, at most 25 (a batch) or 100 (a transaction).
        case memory
        /// Files with `--sync normal`: item writes on the loop while the writer is idle and
        /// writes do not meet (``Placement/eventLoopIfWriterIdle``, `Database.writeNowIfIdle`),
        /// in a group commit under load (same-run A/B at one connection: PutItem 188 → 135 µs
        /// of CPU, UpdateItem 193 → 150; at eight unchanged or better).
        case files
        /// Files with `--sync full`: every commit waits for the disk, which a group shares and
        /// an event loop must not do; item writes always go to the writer (``Placement/writer``).
        case syncedFiles

        /// Where an item write runs.
        var itemWritePlacement: Placement {
            switch self {
            case .memory: .eventLoop
            case .files: .eventLoopIfWriterIdle
            case .syncedFiles: .writer
            }
        }
    }
}
