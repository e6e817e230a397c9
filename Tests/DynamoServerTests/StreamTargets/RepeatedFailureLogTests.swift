@testable import DynamoServer
import Testing

/// A target that keeps failing is logged when it starts failing, at most once a minute after
/// (with the count), and once when it recovers: not on every retry (every 200 ms).
@Suite struct RepeatedFailureLogTests {
    @Test("five minutes of failures every 200 ms: one line at the start, one a minute, one on recovery")
    func failuresEvery200Milliseconds() {
        var log = RepeatedFailureLog()
        var lines: [(Double, RepeatedFailureLog.Action)] = []
        let start = 1_700_000_000.0
        for tick in 0..<1_500 {
            let now = start + Double(tick * 200) / 1_000
            let action = log.failed(now: now)
            if action != .none { lines.append((now, action)) }
        }
        #expect(lines.count == 5)
        #expect(lines.first?.1 == .firstFailure)
        // Each later line counts the failures since the one before it: 300 a minute.
        #expect(lines.dropFirst().map(\.1) == Array(repeating: .stillFailing(failures: 300), count: 4))
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $1.0 - $0.0 >= RepeatedFailureLog.interval })
        #expect(log.succeeded() == .recovered(failures: 1_500))
        #expect(log.succeeded() == .none)
        // A new run starts with its own first line.
        #expect(log.failed(now: start + 400) == .firstFailure)
    }

    @Test("successes alone log nothing; a clock moved back does not silence a failure")
    func quietAndClockMovedBack() {
        var log = RepeatedFailureLog()
        #expect(log.succeeded() == .none)
        #expect(log.failed(now: 1_000) == .firstFailure)
        #expect(log.failed(now: 1_030) == .none)
        #expect(log.failed(now: 500) == .stillFailing(failures: 2))
        #expect(log.failed(now: 520) == .none)
        #expect(log.failed(now: 560) == .stillFailing(failures: 2))
    }
}
