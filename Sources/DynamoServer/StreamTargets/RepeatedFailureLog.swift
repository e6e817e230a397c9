/// When to log a failure that keeps repeating (a stream target that refuses or cannot be
/// reached, a stream that cannot be read): the first failure, then at most one line a minute
/// saying how many failures there were since the last line, and one line when it recovers.
///
/// A value-type state machine: it is told each outcome with the time on the server's clock and
/// answers what to log; the caller logs it.
struct RepeatedFailureLog: Sendable, Equatable {
    /// The least time between two lines about the same running failure, in seconds.
    static let interval: Double = 60

    /// What the caller logs after an outcome.
    enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// The first failure of a run.
        case firstFailure
        /// The failure goes on: `failures` happened since the last line (this one included).
        case stillFailing(failures: Int)
        /// A success after `failures` failures in a row.
        case recovered(failures: Int)
    }

    /// Failures in a row so far (0 when the last outcome was a success).
    private(set) var failures = 0
    /// Failures since the last line logged.
    private var unlogged = 0
    /// When the last line about this run was logged.
    private var lastLogged = 0.0

    /// One more failure at `now`.
    mutating func failed(now: Double) -> Action {
        failures += 1
        unlogged += 1
        if failures == 1 {
            unlogged = 0
            lastLogged = now
            return .firstFailure
        }
        // A clock moved back (the admin API) starts the minute again rather than going silent.
        guard now - lastLogged >= Self.interval || now < lastLogged else { return .none }
        defer {
            unlogged = 0
            lastLogged = now
        }
        return .stillFailing(failures: unlogged)
    }

    /// A success: ends a run of failures, if one was running.
    mutating func succeeded() -> Action {
        guard failures > 0 else { return .none }
        defer { self = RepeatedFailureLog() }
        return .recovered(failures: failures)
    }
}
