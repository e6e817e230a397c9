/// One broken constraint of a request, as DynamoDB's request validator reports it.
///
/// `Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than
/// or equal to 3`: the value as Java's `toString` prints it (`nil` prints `null`, unquoted), the
/// path of the member (lower-camel member names, `.1.member` for the first list element,
/// `.<key>.member` for a map value), and the constraint.
struct ConstraintViolation: Sendable, Hashable {
    /// The member path, relative to the value being decoded until the decoder prefixes it.
    var path: String
    /// The offending value rendered as Java's `toString`; `nil` for a missing value.
    var value: String?
    /// The constraint, e.g. `Member must not be null`.
    var constraint: String
    /// Whether DynamoDB leaves the value out (`Value at '<path>' …`; see `ValueRules.omitsValue`).
    var omitsValue = false

    /// The sentence DynamoDB writes for this violation.
    var text: String {
        if omitsValue { return "Value at '\(path)' failed to satisfy constraint: \(constraint)" }
        let rendered = value.map { "'\($0)'" } ?? "null"
        return "Value \(rendered) at '\(path)' failed to satisfy constraint: \(constraint)"
    }

    /// DynamoDB lists at most this many violations (and counts only those it lists).
    static let reportLimit = 10

    /// The `ValidationException` message for a request's violations:
    /// `1 validation error detected: …` or `N validation errors detected: …; …`.
    static func message(for violations: [ConstraintViolation]) -> String {
        let shown = violations.prefix(reportLimit)
        let noun = shown.count == 1 ? "error" : "errors"
        return "\(shown.count) validation \(noun) detected: " + shown.map(\.text).joined(separator: "; ")
    }
}
