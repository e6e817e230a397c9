/// A table's point-in-time-recovery settings while it is enabled (kept in its definition).
package struct PITRSettings: Codable, Sendable, Hashable {
    /// When recovery was (last) enabled: nothing earlier can be restored.
    package var enabledAt: Double
    /// How many days back a restore may go (1…35, DynamoDB's default 35).
    package var recoveryPeriodInDays: Int

    /// DynamoDB's recovery period when a request names none.
    package static let defaultRecoveryPeriodInDays = 35
    /// How far behind the clock the latest restorable time stays (DynamoDB: about five minutes).
    package static let latestRestorableLag: Double = 300

    /// The earliest restorable second at `now`: the later of the enabling time and the start
    /// of the recovery period.
    package func earliestRestorable(now: Double) -> Double {
        max(enabledAt, now - Double(recoveryPeriodInDays) * 86_400)
    }

    /// The latest restorable time at `now`: five minutes back, never before the earliest.
    package func latestRestorable(now: Double) -> Double {
        max(earliestRestorable(now: now), now - Self.latestRestorableLag)
    }
}

/// Times in the change log and job tables: whole microseconds since 1970.
enum Micros {
    static func from(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }
    static func seconds(_ micros: Int64) -> Double { Double(micros) / 1_000_000 }
}
