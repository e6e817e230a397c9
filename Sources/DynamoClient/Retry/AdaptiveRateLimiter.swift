import Foundation
import Synchronization

/// The client-side rate limiter of the AWS SDKs' "adaptive" retry mode, as botocore builds it.
///
/// Off until the first throttling error. Then every attempt first takes a token from a bucket
/// that fills at the allowed send rate (at least 0.5 per second, holding at most one
/// second's worth, at least one token). The rate follows CUBIC congestion control: a
/// throttling error cuts it to 70% of the measured send rate; each success lets it grow again
/// along `0.4 × (t − K)³ + Wmax`, where `Wmax` is the rate at the last throttle and `K` the
/// time the curve needs to return there; it never exceeds twice the measured rate. The send
/// rate is measured in half-second buckets, smoothed 0.8 / 0.2.
final class AdaptiveRateLimiter: Sendable {
    private struct State {
        var enabled = false
        // The send-rate measurement.
        var measuredRate = 0.0
        var lastBucket: Double
        var requestsInBucket = 0.0
        // The token bucket.
        var fillRate = 1.0
        var maximumCapacity = 1.0
        var capacity = 0.0
        var lastRefill: Double?
        // The CUBIC curve.
        var maximumRate = 0.0
        var zeroPoint: Double
        var lastThrottle: Double
    }

    static let beta = 0.7
    static let scale = 0.4
    static let minimumFillRate = 0.5
    static let smoothing = 0.8
    static let bucketsPerSecond = 2.0

    private let now: @Sendable () -> Double
    private let state: Mutex<State>

    /// Creates a limiter on a monotonic clock in seconds (injected in tests).
    init(now: @escaping @Sendable () -> Double) {
        self.now = now
        let start = now()
        state = Mutex(State(lastBucket: start.rounded(.down), lastRefill: start, zeroPoint: 0, lastThrottle: start))
    }

    /// Whether a throttling error has turned the limiter on.
    var isEnabled: Bool { state.withLock { $0.enabled } }

    /// The bucket's fill rate: the requests per second the limiter allows.
    var allowedRate: Double { state.withLock { $0.fillRate } }

    /// Takes a token for one attempt and returns how long to wait before sending it (zero
    /// while the limiter is off or a token is there).
    func reserve() -> Duration {
        let time = now()
        return state.withLock { state in
            guard state.enabled else { return .zero }
            Self.refill(&state, at: time)
            state.capacity -= 1
            guard state.capacity < 0 else { return .zero }
            return .seconds(-state.capacity / state.fillRate)
        }
    }

    /// Records an attempt's outcome: a throttling error or anything else.
    func record(throttled: Bool) {
        let time = now()
        state.withLock { state in
            let measured = Self.measure(&state, at: time)
            var rate: Double
            if throttled {
                let current = state.enabled ? min(measured, state.fillRate) : measured
                state.maximumRate = current
                state.zeroPoint = Self.zeroPoint(maximumRate: current)
                state.lastThrottle = time
                rate = current * Self.beta
                state.enabled = true
            } else {
                rate = Self.scale * pow3(time - state.lastThrottle - state.zeroPoint) + state.maximumRate
            }
            rate = min(rate, 2 * measured)
            Self.refill(&state, at: time)
            state.fillRate = max(rate, Self.minimumFillRate)
            state.maximumCapacity = max(rate, 1)
            state.capacity = min(state.capacity, state.maximumCapacity)
        }
    }

    private static func zeroPoint(maximumRate: Double) -> Double {
        cbrt(maximumRate * (1 - beta) / scale)
    }

    private static func refill(_ state: inout State, at time: Double) {
        if let last = state.lastRefill {
            state.capacity = min(state.maximumCapacity, state.capacity + (time - last) * state.fillRate)
        }
        state.lastRefill = time
    }

    private static func measure(_ state: inout State, at time: Double) -> Double {
        let bucket = (time * bucketsPerSecond).rounded(.down) / bucketsPerSecond
        state.requestsInBucket += 1
        if bucket > state.lastBucket {
            let current = state.requestsInBucket / (bucket - state.lastBucket)
            state.measuredRate = current * smoothing + state.measuredRate * (1 - smoothing)
            state.requestsInBucket = 0
            state.lastBucket = bucket
        }
        return state.measuredRate
    }
}

private func pow3(_ value: Double) -> Double { value * value * value }
