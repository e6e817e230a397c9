@testable import DynamoEngine
import Synchronization
import Testing

/// The server's clock: starts where told, moves only forward, keeps ticking with the system.
@Suite struct ServerClockTests {
    /// A system clock the test moves by hand.
    final class FakeSystemTime: Sendable {
        let value = Mutex(1_000.0)
        func tick(_ seconds: Double) { value.withLock { $0 += seconds } }
        var read: @Sendable () -> Double { { [self] in value.withLock { $0 } } }
    }

    @Test func startsAtTheGivenTimeAndTicksWithTheSystem() {
        let system = FakeSystemTime()
        let clock = ServerClock(startingAt: 1_767_225_600, systemTime: system.read)
        #expect(clock.now() == 1_767_225_600)
        system.tick(2.5)
        #expect(clock.now() == 1_767_225_602.5)
        #expect(clock.reading().offsetSeconds == 1_767_225_600 - 1_000)
    }

    @Test func withoutAStartItReadsTheSystemTime() {
        let system = FakeSystemTime()
        let clock = ServerClock(systemTime: system.read)
        #expect(clock.now() == 1_000)
        #expect(clock.reading() == .init(epochSeconds: 1_000, offsetSeconds: 0))
    }

    @Test func advancesAndSetsForwardOnly() throws {
        let system = FakeSystemTime()
        let clock = ServerClock(systemTime: system.read)
        #expect(try clock.advance(by: 3600).epochSeconds == 4_600)
        #expect(try clock.advance(by: 0).epochSeconds == 4_600)
        #expect(try clock.set(epochSeconds: 10_000).offsetSeconds == 9_000)
        system.tick(1)
        #expect(clock.now() == 10_001)
        #expect(throws: ServerClock.MoveError.backwards(current: 10_001, requested: 9_999)) {
            try clock.advance(by: -2)
        }
        #expect(throws: ServerClock.MoveError.backwards(current: 10_001, requested: 10_000)) {
            try clock.set(epochSeconds: 10_000)
        }
        #expect(throws: ServerClock.MoveError.notFinite) { try clock.advance(by: .infinity) }
        #expect(throws: ServerClock.MoveError.notFinite) { try clock.set(epochSeconds: .nan) }
        #expect(clock.now() == 10_001)
    }

    @Test func databasesReadTheClockTheyAreGiven() throws {
        let clock = ServerClock(startingAt: 2_000_000_000)
        let east = try Database(path: nil, region: "us-east-1", clock: clock)
        let west = try Database(path: nil, region: "us-west-2", clock: clock)
        try clock.advance(by: 86_400)
        #expect(east.clock === clock && west.clock === clock)
        #expect(east.clock.now() >= 2_000_086_400)
    }
}
