import Synchronization

/// A flag a task sets when it is cancelled and a transfer checks while it runs.
final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    /// Whether cancellation was requested.
    var isCancelled: Bool { state.load(ordering: .acquiring) }

    /// Requests cancellation.
    func cancel() { state.store(true, ordering: .releasing) }
}
