import Dispatch
import Synchronization

/// Kinesis streaming destinations' records in `service` mode: each write's records reach the
/// sink after a delay of up to the window on the server clock, in write order (a batch waits
/// for the ones before it, as a stream's records do).
///
/// While records are held, a timer on a global dispatch queue checks the server clock every
/// 50 ms of real time, so a clock moved past the delays releases them within that tick;
/// ``releaseAll()`` (a settle) hands every held record over at once.
final class DelayedKinesisRecords: Sendable {
    private struct Held {
        var readyAt: Double
        var records: [KinesisChangeRecord]
        var sink: any KinesisRecordSink
    }

    private struct State {
        var held: [Held] = []
        var polling = false
        var batches: UInt64 = 0
    }

    /// Real time between two looks at the server clock while records are held.
    static let pollInterval = DispatchTimeInterval.milliseconds(50)

    private let state = Mutex(State())

    /// Holds one write's records for a delay drawn from `draws` and the write's number.
    func hold(_ records: [KinesisChangeRecord], sink: any KinesisRecordSink, now: Double, window: Double, draws: ConsistencyDraws, clock: ServerClock)
    {
        let startPolling = state.withLock { state -> Bool in
            state.batches &+= 1
            let lag = draws.unit(.kinesisLag, state.batches) * window
            state.held.append(Held(readyAt: now + lag, records: records, sink: sink))
            defer { state.polling = true }
            return !state.polling
        }
        if startPolling { schedule(clock) }
    }

    /// Records held, not yet handed to their sink.
    var heldCount: Int { state.withLock { $0.held.reduce(0) { $0 + $1.records.count } } }

    /// Hands over, in order, every batch due at `now` up to the first that is not.
    func release(upTo now: Double) { hand(take { $0.readyAt <= now }) }

    /// Hands over every held batch (a settle).
    func releaseAll() { hand(take { _ in true }) }

    private func take(while due: (Held) -> Bool) -> [Held] {
        state.withLock { state in
            let count = state.held.prefix(while: due).count
            defer { state.held.removeFirst(count) }
            return Array(state.held.prefix(count))
        }
    }

    private func hand(_ batches: [Held]) {
        for batch in batches { batch.sink.enqueue(batch.records) }
    }

    private func schedule(_ clock: ServerClock) {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.pollInterval) { [weak self] in
            guard let self else { return }
            self.release(upTo: clock.now())
            let again = self.state.withLock { state -> Bool in
                state.polling = !state.held.isEmpty
                return state.polling
            }
            if again { self.schedule(clock) }
        }
    }
}
