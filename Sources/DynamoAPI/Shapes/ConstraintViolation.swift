/// One broken constraint of a request, as DynamoDB's request validator reports it.
///
/// `Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than
/// or equal to 3`: the value as Java's `toString` prints it (`nil` prints `null`, unquoted), the
/// path of the member (lower-camel member names, `.1.member` for the first list element,
/// `.<key>.member` for a map value), and the constraint.
///
/// This type is the one place that renders request-validation messages, including the
/// `1 validation error detected: ` envelope DynamoDB's 2026 validator also puts around its
/// bespoke messages (see ``enveloped(_:)``).
struct ConstraintViolation: Sendable, Hashable {
    /// The member path, relative to the value being decoded until the decoder prefixes it.
    var path: String
    /// The offending value rendered as Java's `toString`; `nil` for a missing value.
    var value: String?
    /// The constraint, e.g. `Member must not be null`.
    var constraint: String
    /// Whether DynamoDB leaves the value out (`Value at '<path>' …`; see `ValueRules.omitsValue`).
    var omitsValue = false
    /// Whether DynamoDB leaves out value and path (`Failed to satisfy constraint: …`; see
    /// `ValueRules.bare`).
    var bare = false
    /// Whether DynamoDB reports this violation alone, dropping every other one of the request
    /// (an empty table name; UpdateItem's invalid `ReturnValues`).
    var reportedAlone = false

    /// The sentence DynamoDB writes for this violation.
    var text: String {
        if bare { return "Failed to satisfy constraint: \(constraint)" }
        if omitsValue { return "Value at '\(path)' failed to satisfy constraint: \(constraint)" }
        let rendered = value.map { "'\($0)'" } ?? "null"
        return "Value \(rendered) at '\(path)' failed to satisfy constraint: \(constraint)"
    }

    /// DynamoDB lists at most this many violations (and counts only those it lists).
    static let reportLimit = 10

    /// The `ValidationException` message for a request's violations:
    /// `1 validation error detected: …` or `N validation errors detected: …; …`. A violation
    /// DynamoDB reports alone hides the others.
    static func message(for violations: [ConstraintViolation]) -> String {
        if let alone = violations.first(where: \.reportedAlone) { return envelope([alone.text]) }
        return envelope(violations.prefix(reportLimit).map(\.text))
    }

    /// `N validation error(s) detected: ` followed by the sentences.
    private static func envelope(_ sentences: [String]) -> String {
        let noun = sentences.count == 1 ? "error" : "errors"
        return "\(sentences.count) validation \(noun) detected: " + sentences.joined(separator: "; ")
    }

    /// A bespoke message of the request validator in the envelope DynamoDB's 2026 validator puts
    /// around it: `1 validation error detected: One or more parameter values were invalid: …`.
    static func enveloped(_ message: String) -> String { envelope([message]) }
}

extension DynamoError {
    /// A `ValidationException` for one value longer than its member allows, for the checks
    /// made after decoding (the engine's): `1 validation error detected: Value '<value>' at
    /// '<path>' failed to satisfy constraint: Member must have length less than or equal to <maximum>`.
    ///
    /// - Parameters:
    ///   - path: the member path, e.g. `keySchema`.
    ///   - value: the value as Java's `toString` prints it, without the quotes.
    ///   - maximum: the member's largest allowed length.
    package static func lengthViolation(at path: String, value: String, maximum: Int) -> DynamoError {
        let violation = ConstraintViolation(path: path, value: value, constraint: ValueRules.maxLengthText(maximum))
        return .validation(ConstraintViolation.message(for: [violation]))
    }

    /// This error as DynamoDB's 2026 request validator reports it: a `ValidationException`'s
    /// message in the `1 validation error detected: ` envelope; other errors unchanged.
    ///
    /// The validator of PutItem, UpdateItem and DeleteItem (captured against us-east-1 on
    /// 2026-08-12) wraps the messages of every check it makes before the table is looked up
    /// (attribute values, expressions and their placeholders); checks that need the table
    /// (`Cannot update attribute pk. This attribute is part of the key`) stay bare.
    package var inValidationEnvelope: DynamoError {
        guard code == .validation, let message else { return self }
        var wrapped = self
        wrapped.message = ConstraintViolation.enveloped(message)
        return wrapped
    }
}
