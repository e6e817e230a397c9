#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The lock of a namespace's writer connection and the state that goes with it.
///
/// Like a `Mutex`, with one difference: the thread that holds it may take it again. The writer
/// thread holds it for a whole group of writes (``Database/enqueueWrite(_:completion:)``) and
/// runs each request's ordinary engine call inside: its `write { }` (and an in-memory read)
/// takes the lock again and finds the group's open transaction.
///
/// `@unchecked Sendable`: the state is only touched by the thread that holds the pthread mutex.
final class WriterLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<Database.WriterState>
    /// The thread holding the mutex (``threadID``), 0 when none. Only the holder stores its own
    /// id, so a thread that reads its own id here holds the lock.
    private let owner = Atomic<UInt>(0)

    init(_ state: consuming Database.WriterState) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, taking the lock unless this thread already holds it.
    func withLock<Result, E: Error>(_ body: (inout Database.WriterState) throws(E) -> Result) throws(E) -> Result {
        try holding { () throws(E) -> Result in try body(&state.pointee) }
    }

    /// Runs `body` holding the lock (taken unless this thread holds it already), without
    /// touching the state: the writer thread keeps the lock across a group this way while each
    /// write in it reaches the state through ``withLock(_:)``.
    func holding<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        let me = Self.threadID
        if owner.load(ordering: .relaxed) == me { return try body() }
        pthread_mutex_lock(mutex)
        return try owned(by: me, body)
    }

    /// Runs `body` holding the lock if it is free (or this thread holds it already); `nil`,
    /// without running `body`, when another thread holds it. Never waits.
    func tryHolding<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result? {
        let me = Self.threadID
        if owner.load(ordering: .relaxed) == me { return try body() }
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        return try owned(by: me, body)
    }

    /// Runs `body` with the mutex just taken by thread `me`, and lets it go after.
    private func owned<Result, E: Error>(by me: UInt, _ body: () throws(E) -> Result) throws(E) -> Result {
        owner.store(me, ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// The calling thread's identity.
    private static var threadID: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
