/// Writes Prometheus' text exposition format (version 0.0.4): `# HELP` and `# TYPE` once per
/// metric family, then one `name{label="value"} number` line per series.
///
/// Small on purpose: LocalDynamo exposes a fixed set of families and needs no registry, so this
/// stands in for swift-prometheus (see docs/observability.md for why).
struct PrometheusText {
    private(set) var text = ""

    /// Starts a metric family.
    mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    /// One integer sample.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Int) {
        sample(name, labels, Double(value))
    }

    /// Numbers as Prometheus reads them: integers without a fraction, `+Inf`.
    static func number(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Label values escape backslash, double quote and newline.
    static func escapeLabel(_ value: String) -> String { escape(value, quotes: true) }

    /// Help text escapes backslash and newline.
    static func escapeHelp(_ value: String) -> String { escape(value, quotes: false) }

    private static func escape(_ value: String, quotes: Bool) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quotes: out += "\\\""
            default: out.append(character)
            }
        }
        return out
    }
}
