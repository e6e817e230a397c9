import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows how far a long copy is, on standard error: a bar with rate and ETA redrawn in place on
/// a terminal, or a plain line every few seconds otherwise (CI logs stay readable).
final class ProgressReporter {
    private let verb: String
    private let total: Int?
    private let isTerminal: Bool
    private let started = ContinuousClock.now
    private var lastShown = ContinuousClock.now
    private var done = 0
    private let quiet: Bool
    private let unit: String

    /// - Parameters:
    ///   - verb: what is counted, e.g. `imported`.
    ///   - total: how many there will be, when known.
    ///   - quiet: show nothing (`--quiet`).
    ///   - unit: what is counted, in the bar (`items`, `bytes`).
    init(verb: String, total: Int?, quiet: Bool = false, unit: String = "items") {
        self.verb = verb
        self.unit = unit
        self.total = total
        self.quiet = quiet
        isTerminal = isatty(2) == 1
    }

    /// Seconds since the start.
    var elapsed: Double {
        let duration = ContinuousClock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Counts `count` more and redraws when it is time.
    func advance(by count: Int) {
        done += count
        guard !quiet else { return }
        let now = ContinuousClock.now
        let interval: Duration = isTerminal ? .milliseconds(100) : .seconds(2)
        guard now - lastShown >= interval else { return }
        lastShown = now
        show(final: false)
    }

    /// Draws the final state (and ends the terminal line).
    func finish() {
        guard !quiet else { return }
        show(final: true)
    }

    private func show(final: Bool) {
        let seconds = max(elapsed, 0.001)
        let rate = Double(done) / seconds
        var text: String
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let eta = rate > 0 ? Double(max(0, total - done)) / rate : 0
            if isTerminal {
                let width = 30
                let filled = Int(fraction * Double(width))
                text = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
                text += "\(done)/\(total) \(unit)  \(Self.format(rate))/s  ETA \(Self.format(eta))s "
            } else {
                text = "\(verb) \(done)/\(total) \(unit) (\(Int(fraction * 100))%, \(Self.format(rate))/s, ETA \(Self.format(eta))s)\n"
            }
        } else {
            text = (isTerminal ? "\r" : "") + "\(verb) \(done) \(unit) (\(Self.format(rate))/s)" + (isTerminal ? " " : "\n")
        }
        if final && isTerminal { text += "\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
    }
}
