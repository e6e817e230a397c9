import DynamoAPI

extension FaultInjector.Rule {
    /// Why a rule was refused.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// A rule from its settings, checked: `error` one of ``FaultInjector/errors``, `rate` in
    /// 0…1, latency 0…60,000 ms, `count` at least 1, and an error or a latency (or both).
    package static func checked(
        table: String?, operation: String?, error: String?, message: String?,
        latencyMilliseconds: Int?, rate: Double?, count: Int?
    ) throws(Invalid) -> Self {
        if let error, !FaultInjector.errors.contains(error) {
            throw Invalid(description: "error must be one of \(FaultInjector.errors.sorted().joined(separator: ", ")); got \(error)")
        }
        let rate = rate ?? 1
        guard rate.isFinite, (0...1).contains(rate) else { throw Invalid(description: "rate must be between 0 and 1") }
        let latency = latencyMilliseconds ?? 0
        guard (0...60_000).contains(latency) else { throw Invalid(description: "latencyMs must be between 0 and 60000") }
        if let count, count < 1 { throw Invalid(description: "count must be at least 1") }
        guard error != nil || latency > 0 else { throw Invalid(description: "a fault needs an error, a latencyMs, or both") }
        return Self(
            table: table, operation: operation, error: error, message: message, latencyMilliseconds: latency,
            rate: rate, remaining: count)
    }

    /// A rule from `serve --fault`'s form: `table=Orders,operation=PutItem,error=InternalServerError,rate=0.1`
    /// (also `latency-ms=N`, `count=N`, `message=TEXT` as the last setting).
    package init(spec: String) throws(Invalid) {
        var settings: [String: String] = [:]
        var rest = Substring(spec)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { throw Invalid(description: "expected NAME=VALUE in '\(spec)'") }
            let name = String(rest[..<equals]).lowercased()
            let afterEquals = rest[rest.index(after: equals)...]
            let value: Substring
            if name == "message" {
                value = afterEquals
                rest = ""
            } else if let comma = afterEquals.firstIndex(of: ",") {
                value = afterEquals[..<comma]
                rest = afterEquals[afterEquals.index(after: comma)...]
            } else {
                value = afterEquals
                rest = ""
            }
            settings[name] = String(value)
        }
        let known: Set<String> = ["table", "operation", "error", "message", "latency-ms", "rate", "count"]
        if let unknown = settings.keys.first(where: { !known.contains($0) }) {
            throw Invalid(description: "unknown fault setting '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        func number<T: LosslessStringConvertible>(_ name: String, as: T.Type) throws(Invalid) -> T? {
            guard let text = settings[name] else { return nil }
            guard let value = T(text) else { throw Invalid(description: "\(name) must be a number; got '\(text)'") }
            return value
        }
        self = try Self.checked(
            table: settings["table"], operation: settings["operation"], error: settings["error"],
            message: settings["message"], latencyMilliseconds: number("latency-ms", as: Int.self),
            rate: number("rate", as: Double.self), count: number("count", as: Int.self))
    }
}
