import DynamoAPI

extension AdminRoutes {
    /// Faults on purpose: add rules, list them, clear them (see `FaultInjector`).
    static let faults: [AdminRoute] = [
        AdminRoute(
            "POST", "/_localdynamo/faults",
            "Add a fault: {\"table\", \"operation\", \"error\", \"message\", \"latencyMs\", \"rate\", \"count\"} (all optional but an error or a latency; \"seed\" restarts the draws)"
        ) { request, environment in
            let members = try request.jsonObject()
            let known: Set<String> = ["table", "operation", "error", "message", "latencyMs", "rate", "count", "seed"]
            if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
                throw AdminError(status: 400, "Unknown member \(unknown); known: \(known.sorted().joined(separator: ", "))")
            }
            let rule: FaultInjector.Rule
            do {
                rule = try .checked(
                    table: optionalString(members["table"], name: "table"),
                    operation: optionalString(members["operation"], name: "operation"),
                    error: optionalString(members["error"], name: "error"),
                    message: optionalString(members["message"], name: "message"),
                    latencyMilliseconds: try integer(members["latencyMs"], name: "latencyMs"),
                    rate: try number(members["rate"], name: "rate"),
                    count: try integer(members["count"], name: "count"))
            } catch let error as FaultInjector.Rule.Invalid {
                throw AdminError(status: 400, error.description)
            }
            if let seed = try integer(members["seed"], name: "seed") {
                guard seed >= 0 else { throw AdminError(status: 400, "seed must be a non-negative integer") }
                environment.faults.reseed(UInt64(seed))
            }
            return render(environment.faults.add(rule))
        },
        AdminRoute("GET", "/_localdynamo/faults", "The faults in force") { _, environment in
            .object(["faults": .array(environment.faults.rules.map(render))])
        },
        AdminRoute("DELETE", "/_localdynamo/faults", "Remove every fault") { _, environment in
            let count = environment.faults.rules.count
            environment.faults.reset()
            return .object(["removed": .number(String(count))])
        },
    ]

    static func render(_ rule: FaultInjector.Rule) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .number(String(rule.id)),
            "rate": .number(String(rule.rate)),
            "latencyMs": .number(String(rule.latencyMilliseconds)),
        ]
        if let table = rule.table { members["table"] = .string(table) }
        if let operation = rule.operation { members["operation"] = .string(operation) }
        if let error = rule.error { members["error"] = .string(error) }
        if let message = rule.message { members["message"] = .string(message) }
        if let remaining = rule.remaining { members["count"] = .number(String(remaining)) }
        return .object(members)
    }

    /// A JSON integer member, or nil when absent.
    static func integer(_ value: JSONValue?, name: String) throws(AdminError) -> Int? {
        guard let number = try number(value, name: name) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else { throw AdminError(status: 400, "\(name) must be an integer") }
        return Int(number)
    }
}
