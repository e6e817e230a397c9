/// Capacity units available to one table or index for reads or writes, refilled continuously at
/// the provisioned rate and holding at most `burstSeconds` of unused capacity (DynamoDB's burst
/// capacity: up to 300 seconds).
///
/// A request is admitted while the balance is above zero and pays what it really consumed
/// afterwards, so a large item can take the balance below zero: DynamoDB too admits on an
/// estimate and charges the actual units later. Time is the server clock, passed in.
struct TokenBucket: Sendable, Equatable {
    /// Units available (negative: owed).
    var balance: Double
    /// When ``balance`` was last brought up to date.
    var updated: Double

    /// A bucket that starts full: a new table has its whole burst available.
    init(rate: Double, burstSeconds: Double, now: Double) {
        balance = rate * burstSeconds
        updated = now
    }

    /// Adds what `rate` earned since the last update, up to `burstSeconds` of it. A rate changed
    /// by UpdateTable applies from now on; a lowered rate trims the balance to the new burst.
    mutating func refill(rate: Double, burstSeconds: Double, now: Double) {
        if now > updated {
            balance += (now - updated) * rate
            updated = now
        }
        balance = min(balance, rate * burstSeconds)
    }

    /// Whether a request may start.
    var admits: Bool { balance > 0 }

    /// Charges consumed units.
    mutating func spend(_ units: Double) {
        balance -= units
    }
}
