import DynamoAPI
import Synchronization

/// Faults on purpose, for exercising applications' retry and timeout code: rules that make
/// matching requests fail with a DynamoDB error, wait before answering, or both, at a rate.
///
/// Rules come from `serve --fault` and `POST /_localdynamo/faults`. Draws use SplitMix64 seeded
/// by `--fault-seed` (or the `seed` of a POST), so the same requests meet the same faults in
/// every run. A rule with a `count` retires after that many faults.
package final class FaultInjector: Sendable {
    /// One rule.
    package struct Rule: Sendable, Equatable {
        /// Assigned when the rule is added.
        package var id: Int = 0
        /// The table a request must name (`TableName`, a `RequestItems` key or a transaction
        /// item's table); `nil` matches every request.
        package var table: String?
        /// The operation (`PutItem`); `nil` matches every operation.
        package var operation: String?
        /// The error to answer with (`InternalServerError`, `ProvisionedThroughputExceededException`,
        /// `ThrottlingException`, `RequestLimitExceeded`, `ServiceUnavailable`, or
        /// `TransactionConflict`, which makes the request meet a conflicting transaction);
        /// `nil` for latency only.
        package var error: String?
        /// The message; `nil` for DynamoDB's own wording of `error`.
        package var message: String?
        /// Milliseconds to wait before answering (or failing).
        package var latencyMilliseconds: Int = 0
        /// The share of matching requests that meet the fault, 0…1.
        package var rate: Double = 1
        /// Faults left before the rule retires; `nil` for no limit.
        package var remaining: Int?

        package init(
            table: String? = nil, operation: String? = nil, error: String? = nil, message: String? = nil,
            latencyMilliseconds: Int = 0, rate: Double = 1, remaining: Int? = nil
        ) {
            self.table = table
            self.operation = operation
            self.error = error
            self.message = message
            self.latencyMilliseconds = latencyMilliseconds
            self.rate = rate
            self.remaining = remaining
        }
    }

    /// What a request meets.
    package struct Fault: Sendable, Equatable {
        package var latencyMilliseconds: Int
        /// The error to answer with, if any.
        package var error: DynamoError?
        /// Arm one transaction conflict on this table before running the request.
        package var conflictTable: String?
    }

    private struct State {
        var rules: [Rule] = []
        var random: SplitMix64
        var nextID = 1
    }

    private let state: Mutex<State>
    /// Whether any rule exists: read on every request, so kept apart from the rules' lock.
    private let armed = Atomic<Bool>(false)
    private let injected = Atomic<Int>(0)

    /// Faults met since start (`/metrics`).
    package var injectedCount: Int { injected.load(ordering: .relaxed) }

    package init(seed: UInt64 = 0, rules: [Rule] = []) {
        state = Mutex(State(random: SplitMix64(seed: seed)))
        for rule in rules { add(rule) }
    }

    /// Whether any rule exists (cheap; checked before anything else per request).
    package var isArmed: Bool { armed.load(ordering: .relaxed) }

    /// The rules in force.
    package var rules: [Rule] { state.withLock { $0.rules } }

    /// Adds a rule; returns it with its id.
    @discardableResult
    package func add(_ rule: Rule) -> Rule {
        state.withLock { state in
            var rule = rule
            rule.id = state.nextID
            state.nextID += 1
            state.rules.append(rule)
            armed.store(true, ordering: .relaxed)
            return rule
        }
    }

    /// Removes every rule.
    package func reset() {
        state.withLock { state in
            state.rules.removeAll()
            armed.store(false, ordering: .relaxed)
        }
    }

    /// Restarts the random draws from `seed`.
    package func reseed(_ seed: UInt64) {
        state.withLock { $0.random = SplitMix64(seed: seed) }
    }

    /// The fault a request meets, if any: the first matching rule whose draw hits.
    package func fault(operation: String, tables: [String]) -> Fault? {
        guard isArmed else { return nil }
        return state.withLock { state in
            for position in state.rules.indices {
                let rule = state.rules[position]
                guard rule.operation == nil || rule.operation == operation,
                    rule.table == nil || tables.contains(rule.table!)
                else { continue }
                let draw = Double(state.random.next() >> 11) / Double(1 << 53)
                guard draw < rule.rate else { continue }
                if let remaining = rule.remaining {
                    if remaining <= 1 {
                        state.rules.remove(at: position)
                        armed.store(!state.rules.isEmpty, ordering: .relaxed)
                    } else {
                        state.rules[position].remaining = remaining - 1
                    }
                }
                injected.wrappingAdd(1, ordering: .relaxed)
                if rule.error == "TransactionConflict" {
                    return Fault(
                        latencyMilliseconds: rule.latencyMilliseconds, error: nil,
                        conflictTable: rule.table ?? tables.first)
                }
                let error = rule.error.map { code in
                    DynamoError(DynamoErrorCode(rawValue: code), rule.message ?? Self.message(for: code))
                }
                return Fault(latencyMilliseconds: rule.latencyMilliseconds, error: error, conflictTable: nil)
            }
            return nil
        }
    }

    /// The errors a rule may name.
    package static let errors: Set<String> = [
        "InternalServerError", "ServiceUnavailable", "ProvisionedThroughputExceededException", "ThrottlingException",
        "RequestLimitExceeded", "LimitExceededException", "TransactionConflict",
    ]

    /// DynamoDB's wording of each injectable error.
    static func message(for code: String) -> String? {
        switch code {
        case "InternalServerError": "Internal server error"
        case "ServiceUnavailable": "Service unavailable"
        case "ProvisionedThroughputExceededException":
            "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
        case "ThrottlingException": "Rate of requests exceeds the allowed throughput."
        case "RequestLimitExceeded":
            "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase"
        case "LimitExceededException": "Too many operations for a given subscriber."
        default: nil
        }
    }

    /// The tables a request body names: `TableName`, the keys of `RequestItems`, and the
    /// tables of `TransactItems` / `Statements` entries.
    static func tables(in body: JSONValue) -> [String] {
        var tables: [String] = []
        if let name = body["TableName"]?.stringValue { tables.append(name) }
        if case .object(let items)? = body["RequestItems"] { tables += items.keys.sorted() }
        if case .array(let actions)? = body["TransactItems"] {
            for action in actions {
                guard case .object(let members) = action else { continue }
                for member in members.values {
                    if let name = member["TableName"]?.stringValue { tables.append(name) }
                }
            }
        }
        return tables
    }
}
