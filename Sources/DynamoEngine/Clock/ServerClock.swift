#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

/// The one clock of a server: everything time-based in the engine reads it (TTL expiry, stream
/// retention and shard rollover, iterator expiry, creation times, idempotency-token lifetime,
/// the TTL change limit, PITR windows, transient statuses).
///
/// It runs with the system clock plus an offset that only grows: tests move it forward through
/// `POST /_localdynamo/clock` (or start it elsewhere with `serve --clock-start`), and a moved
/// clock keeps ticking from there. It never goes backwards, so nothing that orders by time
/// (stream sequence numbers, restorable windows) can see time reversed.
///
/// ```swift
/// let clock = ServerClock(startingAt: 1_767_225_600)   // 2026-01-01T00:00:00Z
/// try clock.advance(by: 3600)
/// clock.now()                                          // ≈ 1_767_229_200
/// ```
package final class ServerClock: Sendable {
    /// Where the clock stands, as reported by the admin API.
    package struct Reading: Sendable, Equatable {
        /// Seconds since 1970 on the server's clock.
        package var epochSeconds: Double
        /// Seconds the server's clock is ahead of the system clock.
        package var offsetSeconds: Double
    }

    /// Why a move was refused.
    package enum MoveError: Error, Equatable, CustomStringConvertible {
        /// The move would take the clock back in time.
        case backwards(current: Double, requested: Double)
        /// The amount is not a finite number.
        case notFinite

        package var description: String {
            switch self {
            case .backwards(let current, let requested):
                "The clock never goes backwards: it reads \(current) and \(requested) is earlier"
            case .notFinite:
                "The clock can only move by a finite number of seconds"
            }
        }
    }

    private let systemTime: @Sendable () -> Double
    private let offset: Mutex<Double>

    /// A clock that reads the system time, or starts at `epochSeconds` and ticks from there.
    ///
    /// - Parameters:
    ///   - epochSeconds: where the clock starts (`serve --clock-start`); `nil` for now.
    ///   - systemTime: the underlying time source (tests may pin it).
    package init(
        startingAt epochSeconds: Double? = nil,
        systemTime: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.systemTime = systemTime
        offset = Mutex(epochSeconds.map { $0 - systemTime() } ?? 0)
    }

    /// Seconds since 1970 on the server's clock.
    package func now() -> Double {
        systemTime() + offset.withLock { $0 }
    }

    /// The current time and offset.
    package func reading() -> Reading {
        let offset = offset.withLock { $0 }
        return Reading(epochSeconds: systemTime() + offset, offsetSeconds: offset)
    }

    /// Moves the clock forward by `seconds` (zero is allowed and changes nothing).
    /// - Throws: ``MoveError`` for a negative or non-finite amount.
    @discardableResult
    package func advance(by seconds: Double) throws(MoveError) -> Reading {
        guard seconds.isFinite else { throw .notFinite }
        return try offset.withLock { (offset: inout Double) throws(MoveError) -> Reading in
            let current = systemTime() + offset
            guard seconds >= 0 else { throw .backwards(current: current, requested: current + seconds) }
            offset += seconds
            return Reading(epochSeconds: current + seconds, offsetSeconds: offset)
        }
    }

    /// Sets the clock to `epochSeconds`, which must not be earlier than its current reading.
    /// - Throws: ``MoveError`` for an earlier or non-finite time.
    @discardableResult
    package func set(epochSeconds: Double) throws(MoveError) -> Reading {
        guard epochSeconds.isFinite else { throw .notFinite }
        return try offset.withLock { (offset: inout Double) throws(MoveError) -> Reading in
            let system = systemTime()
            let current = system + offset
            guard epochSeconds >= current else { throw .backwards(current: current, requested: epochSeconds) }
            offset = epochSeconds - system
            return Reading(epochSeconds: epochSeconds, offsetSeconds: offset)
        }
    }
}
