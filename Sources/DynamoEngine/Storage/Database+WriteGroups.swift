import Dispatch
import Synchronization

/// One request's write, queued for the namespace's writer thread.
struct QueuedWrite: Sendable {
    /// Runs the request's engine call and returns how to answer it once the fate of its group's
    /// commit is known (`nil`: committed).
    let perform: @Sendable () -> @Sendable ((any Error)?) -> Void
}

/// What the writer thread keeps while a group's transaction is open.
struct WriteGroup {
    /// The live counts before the group, restored if its commit fails.
    var statisticsBefore: [String: LiveStatistics]
}

/// The writes waiting for a namespace's writer thread, and that thread (a serial dispatch queue:
/// one thread at a time, none while idle).
final class WriteQueue: Sendable {
    private let queue = DispatchQueue(label: "localdynamo.writer")
    private let pending = Mutex<(writes: [QueuedWrite], draining: Bool)>(([], false))
    /// Writes queued and not answered yet.
    let inFlight = Atomic<Int>(0)
    /// Groups the writer thread ran (a write found alone is a group of one).
    let groups = Atomic<Int>(0)

    /// Writes meet each other (``Database/writeNowIfIdle(_:)`` then leaves every write to the
    /// writer thread): set when a write finds another queued, running or holding the lock, or
    /// when the writer runs a group of more than one; cleared after ``calmGroups`` groups of one
    /// in a row.
    let contended = Atomic<Bool>(false)
    /// Groups of one write the writer ran since the last sign of contention.
    private let soloGroups = Atomic<Int>(0)
    /// Groups of one in a row after which writes are taken to no longer meet.
    static let calmGroups = 16

    /// No write is queued and none is being drained.
    var isIdle: Bool { pending.withLock { !$0.draining && $0.writes.isEmpty } }

    /// A write met another one.
    func noteContention() {
        soloGroups.store(0, ordering: .relaxed)
        contended.store(true, ordering: .relaxed)
    }

    /// The writer runs a group of `size` writes (called on the writer thread only): counted in
    /// ``groups``, and a sign of contention or calm.
    func noteGroup(size: Int) {
        groups.add(1, ordering: .relaxed)
        if size > 1 {
            noteContention()
        } else if soloGroups.wrappingAdd(1, ordering: .relaxed).newValue >= Self.calmGroups {
            contended.store(false, ordering: .relaxed)
        }
    }

    /// Queues `write`; `true` when no drain is running and the caller must start one.
    func append(_ write: QueuedWrite) -> Bool {
        inFlight.add(1, ordering: .relaxed)
        return pending.withLock { pending in
            pending.writes.append(write)
            defer { pending.draining = true }
            return !pending.draining
        }
    }

    /// Every queued write; empty (and the drain over) when none is left.
    func take() -> [QueuedWrite] {
        pending.withLock { pending in
            if pending.writes.isEmpty { pending.draining = false }
            defer { pending.writes = [] }
            return pending.writes
        }
    }

    /// Runs `work` on the writer thread.
    func run(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}

extension Database {
    /// Runs `work` — a request's engine call that writes (PutItem, a transaction …) — on this
    /// namespace's writer thread, then calls `completion` with its result, on that thread, once
    /// the write is committed (or failed).
    ///
    /// Group commit: the writer takes every write queued while it was busy and runs them in
    /// order in one SQLite transaction, each in its own savepoint (a write that fails — a
    /// condition, a validation — rolls back alone and gets its own error; the writes after it
    /// see the ones before it), then commits once. No write is answered before that commit; if
    /// the commit fails, every write of the group that had succeeded gets its error. A write
    /// found alone runs in its own transaction, exactly as `write { }` runs one anywhere else.
    package func enqueueWrite<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let queue = writeQueue
        let write = QueuedWrite {
            let result = Result { try work() }
            return { commitError in
                queue.inFlight.subtract(1, ordering: .relaxed)
                if let commitError, case .success = result { completion(.failure(commitError)) } else { completion(result) }
            }
        }
        if writeQueue.append(write) { writeQueue.run { self.drainWrites() } }
    }

    /// Runs `work` — a request's engine call that writes — right here, in its own transaction,
    /// when the writer is idle and writes have not been meeting each other: no write queued or
    /// running, the writer's lock free, and no group of more than one lately (see
    /// `WriteQueue.contended`). Returns `nil` without running it otherwise (the caller then hands
    /// it to ``enqueueWrite(_:completion:)``). Never waits for the lock.
    ///
    /// For an event loop: a write that finds the writer idle has no group to join, and the hop
    /// to the writer thread and back costs more than the write (one connection writing to a
    /// file: PutItem 188 → 135 µs of CPU). Writes that meet go to the writer, whose groups share
    /// a commit: on the loop they would each commit alone (eight connections: PutItem 129 →
    /// 153 µs when measured without the contention rule). A checkpoint due after a commit made
    /// here, which may wait for readers, runs on the writer thread. Only with `--sync normal`:
    /// with `full` each commit waits for the disk, which an event loop must not do.
    package func writeNowIfIdle<T>(_ work: () throws -> T) throws -> T? {
        guard !writeQueue.contended.load(ordering: .relaxed) else { return nil }
        guard writeQueue.isIdle else {
            writeQueue.noteContention()
            return nil
        }
        let result = try writer.tryHolding { () throws -> T in
            writer.withLock { $0.checkpointsOnWriterThread = true }
            defer { writer.withLock { $0.checkpointsOnWriterThread = false } }
            return try work()
        }
        if result == nil { writeQueue.noteContention() }
        return result
    }

    /// Writes handed to ``enqueueWrite(_:completion:)`` and not answered yet.
    package var writesInFlight: Int { writeQueue.inFlight.load(ordering: .relaxed) }

    /// Groups the writer thread has run (a write found alone is a group of one).
    package var writeGroupsRun: Int { writeQueue.groups.load(ordering: .relaxed) }

    /// Runs `body` holding the writer's lock: no write runs or commits meanwhile (the writer
    /// thread waits). For tests of what must not wait for a write.
    package func holdingWriterLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try writer.holding(body)
    }

    private func drainWrites() {
        while true {
            let writes = writeQueue.take()
            if writes.isEmpty { return }
            runGroup(writes)
        }
    }

    /// Runs `writes` as one group (see ``enqueueWrite(_:completion:)``) and answers them.
    private func runGroup(_ writes: [QueuedWrite]) {
        writeQueue.noteGroup(size: writes.count)
        guard writes.count > 1 else {
            writes.first?.perform()(nil)
            return
        }
        var answers: [@Sendable ((any Error)?) -> Void] = []
        answers.reserveCapacity(writes.count)
        var rest = writes[...]
        let commitError: (any Error)? = writer.holding {
            guard beginGroup() else { return nil }
            // SQLite ends a transaction by itself after some errors (a full disk): the writes
            // left then run one by one, below.
            while let write = rest.first, writer.withLock({ $0.connection.isInTransaction }) {
                rest.removeFirst()
                answers.append(write.perform())
            }
            return commitGroup()
        }
        for answer in answers { answer(commitError) }
        for write in rest { write.perform()(nil) }
    }

    /// Opens the group's transaction; `false` when it cannot (the writes then run one by one).
    private func beginGroup() -> Bool {
        writer.withLock { state in
            guard (try? state.connection.statement("BEGIN IMMEDIATE").run()) != nil else { return false }
            state.group = WriteGroup(statisticsBefore: state.statistics.tables)
            return true
        }
    }

    /// Commits the group's transaction; the error when it could not (everything rolled back).
    private func commitGroup() -> (any Error)? {
        writer.withLock { state in
            guard let group = state.group else { return nil }
            state.group = nil
            let connection = state.connection
            do {
                try connection.statement("COMMIT").run()
            } catch {
                if connection.isInTransaction { try? connection.statement("ROLLBACK").run() }
                state.statistics.tables = group.statisticsBefore
                state.streamAppenders = [:]
                state.catalogChanges = []
                state.committedChanges = []
                return error
            }
            publishAfterCommit(&state)
            checkpointIfLogIsLarge(state)
            return nil
        }
    }

    /// `write { }` inside a group: `body` and the change consumers in a savepoint of the group's
    /// transaction, undone alone (rows, live counts, catalog changes) if they throw.
    func writeInGroup<T>(_ state: inout WriterState, _ body: (inout WriterState) throws -> T) throws -> T {
        let connection = state.connection
        let statisticsBefore = state.statistics.tables
        let catalogChangesBefore = state.catalogChanges.count
        let committedChangesBefore = state.committedChanges.count
        state.itemChanges = []
        defer { state.itemChanges = [] }
        try connection.statement("SAVEPOINT request").run()
        do {
            let result = try body(&state)
            try consumeItemChanges(&state)
            try connection.statement("RELEASE request").run()
            return result
        } catch {
            try? connection.statement("ROLLBACK TO request").run()
            try? connection.statement("RELEASE request").run()
            state.statistics.tables = statisticsBefore
            state.streamAppenders = [:]
            state.catalogChanges.removeSubrange(catalogChangesBefore...)
            state.committedChanges.removeSubrange(committedChangesBefore...)
            throw error
        }
    }
}
