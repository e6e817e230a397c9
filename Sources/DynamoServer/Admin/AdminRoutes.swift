import DynamoAPI
import DynamoEngine

/// Every endpoint of the admin API, one list per concern. README's "Admin API" table lists
/// the same endpoints; add a row there with each new route.
enum AdminRoutes {
    static var all: [AdminRoute] { health + clock + ttl + snapshots + faults + consistency + metrics }

    /// `GET /_localdynamo/health`: `{"status":"ok"}`, LocalDynamo's own health check for probes
    /// that read JSON (`GET /` answers as DynamoDB does, in plain text).
    static let health: [AdminRoute] = [
        AdminRoute("GET", "/_localdynamo/health", "Health: {\"status\": \"ok\"}") { _, _ in
            .object(["status": .string("ok")])
        }
    ]

    /// `GET /_localdynamo/clock` and `POST /_localdynamo/clock` (`advanceSeconds` or
    /// `epochSeconds`): the server's one clock.
    static let clock: [AdminRoute] = [
        AdminRoute("GET", "/_localdynamo/clock", "The server clock: epochSeconds and offsetSeconds") { _, environment in
            render(environment.engine.clock.reading())
        },
        AdminRoute(
            "POST", "/_localdynamo/clock",
            "Move the clock forward: {\"advanceSeconds\": N} or {\"epochSeconds\": T}"
        ) { request, environment in
            let members = try request.jsonObject()
            let advance = try number(members["advanceSeconds"], name: "advanceSeconds")
            let epoch = try number(members["epochSeconds"], name: "epochSeconds")
            let clock = environment.engine.clock
            do {
                switch (advance, epoch) {
                case (let seconds?, nil): return render(try clock.advance(by: seconds))
                case (nil, let seconds?): return render(try clock.set(epochSeconds: seconds))
                default:
                    throw AdminError(status: 400, "Give exactly one of advanceSeconds and epochSeconds")
                }
            } catch let error as ServerClock.MoveError {
                throw AdminError(status: 400, error.description)
            }
        },
    ]

    /// `POST /_localdynamo/ttl/sweep`: runs the TTL sweeper now in every namespace and answers
    /// once its deletions are committed.
    static let ttl: [AdminRoute] = [
        AdminRoute(
            "POST", "/_localdynamo/ttl/sweep",
            "Run the TTL sweeper now in every namespace: {\"deleted\": N} once committed"
        ) { _, environment in
            let engine = environment.engine
            let deleted = try await environment.blocking { try engine.sweepExpiredItems() }
            return .object(["deleted": .number(String(deleted))])
        }
    ]

    static func render(_ reading: ServerClock.Reading) -> JSONValue {
        .object([
            "epochSeconds": .number(JSONNumberText.of(reading.epochSeconds)),
            "offsetSeconds": .number(JSONNumberText.of(reading.offsetSeconds)),
        ])
    }

    /// A JSON number member as a Double, or nil when absent.
    static func number(_ value: JSONValue?, name: String) throws(AdminError) -> Double? {
        guard let value else { return nil }
        guard case .number(let text) = value, let number = Double(text), number.isFinite else {
            throw AdminError(status: 400, "\(name) must be a number")
        }
        return number
    }
}

/// Numbers as JSON text for admin answers.
enum JSONNumberText {
    /// `1767225600.0` style: always with a fraction, millisecond precision.
    static func of(_ value: Double) -> String {
        let millis = (value * 1000).rounded()
        let whole = Int64((millis / 1000).rounded(.towardZero))
        let fraction = Int64(abs(millis.truncatingRemainder(dividingBy: 1000)))
        let sign = value < 0 && whole == 0 && fraction != 0 ? "-" : ""
        var digits = String(fraction)
        while digits.count < 3 { digits = "0" + digits }
        while digits.count > 1, digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }
}
