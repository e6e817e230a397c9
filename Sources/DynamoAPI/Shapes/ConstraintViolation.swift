/// One broken constraint of a request, as DynamoDB's request validator reports it.
///
/// `Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than
/// or equal to 3`: the value as Java's `toString` prints it (`nil` prints `null`, unquoted), the
/// path of the member (lower-camel member names, `.1.member` for the first list element,
/// `.<key>.member` for a map value), and the constraint.
///
/// This type is the one place that renders request-validation messages, including the
/// `1 validation error detected: ` envelope DynamoDB's 2026 validator also puts around its
/// bespoke messages (see ``enveloped(_:)``), in both wordings (``ErrorWording``): a violation
/// keeps what its 2025 sentence needs (the value, the lower-camel path, the model's enum value
/// set), and the 2025 list ignores the 2026 flags (`omitsValue`, `bare`, `reportedAlone`).
struct ConstraintViolation: Sendable, Hashable {
    /// The member path, relative to the value being decoded until the decoder prefixes it.
    var path: String
    /// The offending value rendered as Java's `toString`; `nil` for a missing value.
    var value: String?
    /// The constraint, e.g. `Member must not be null`.
    var constraint: String
    /// The path in the 2025 wording: lower-camel member names all along.
    var path2025: String = ""
    /// The value in the 2025 wording, which never leaves it out.
    var value2025: String?
    /// The constraint in the 2025 wording, where it differs (the model's enum value set).
    var constraint2025: String?
    /// Whether DynamoDB leaves the value out (`Value at '<path>' …`; see `ValueRules.omitsValue`).
    var omitsValue = false
    /// Whether DynamoDB leaves out value and path (`Failed to satisfy constraint: …`; see
    /// `ValueRules.bare`).
    var bare = false
    /// Whether DynamoDB reports this violation alone, dropping every other one of the request
    /// (an empty table name; UpdateItem's invalid `ReturnValues`).
    var reportedAlone = false

    /// The sentence DynamoDB writes for this violation (2026 wording).
    var text: String {
        if bare { return "Failed to satisfy constraint: \(constraint)" }
        if omitsValue { return "Value at '\(path)' failed to satisfy constraint: \(constraint)" }
        let rendered = value.map { "'\($0)'" } ?? "null"
        return "Value \(rendered) at '\(path)' failed to satisfy constraint: \(constraint)"
    }

    /// The sentence in the 2025 wording: always the value and the lower-camel path.
    var text2025: String {
        let rendered = value2025.map { "'\($0)'" } ?? "null"
        return "Value \(rendered) at '\(path2025)' failed to satisfy constraint: \(constraint2025 ?? constraint)"
    }

    /// DynamoDB lists at most this many violations (and counts only those it lists).
    static let reportLimit = 10

    /// The `ValidationException` message for a request's violations (2026 wording):
    /// `1 validation error detected: …` or `N validation errors detected: …; …`. A violation
    /// DynamoDB reports alone hides the others.
    static func message(for violations: [ConstraintViolation]) -> String {
        if let alone = violations.first(where: \.reportedAlone) { return envelope([alone.text]) }
        return envelope(violations.prefix(reportLimit).map(\.text))
    }

    /// The message in the 2025 wording: every violation (none is reported alone), the members
    /// named in `order2025` in that order among the places they hold (the 2025 validator walked
    /// PutItem's `returnValues` before `returnConsumedCapacity`, for one).
    static func message2025(for violations: [ConstraintViolation], order2025: [String]) -> String {
        var listed = violations
        let rank = Dictionary(uniqueKeysWithValues: order2025.enumerated().map { ($1, $0) })
        let slots = listed.indices.filter { rank[listed[$0].path2025] != nil }
        let ordered = slots.map { listed[$0] }.sorted { rank[$0.path2025]! < rank[$1.path2025]! }
        for (slot, violation) in zip(slots, ordered) { listed[slot] = violation }
        return envelope(listed.prefix(reportLimit).map(\.text2025))
    }

    /// The inputs whose violations the 2025 validator listed in another order than the 2026 one,
    /// and that order (the four-region capture of 2026-06-09: PutItem's `returnValues` before
    /// `returnConsumedCapacity` and `returnItemCollectionMetrics`, then `tableName`; UpdateItem's
    /// `returnConsumedCapacity` before `returnValues`).
    static let order2025: [String: [String]] = [
        "PutItemInput": ["returnValues", "returnConsumedCapacity", "returnItemCollectionMetrics", "tableName"],
        "DeleteItemInput": ["returnValues", "returnConsumedCapacity", "returnItemCollectionMetrics", "tableName"],
        "UpdateItemInput": ["returnConsumedCapacity", "returnValues"],
    ]

    /// The inputs whose missing required member makes DynamoDB answer in the older form in
    /// every region: every violation, each with its value and lower-camel path, in the 2025
    /// order. UpdateItem without `Key` (paritysuite's validation-ordering test, eu-west-2 and
    /// us-east-1 on 2026-10-09: `4 validation errors detected: Value 'INVALID' at
    /// 'returnConsumedCapacity' …; Value '' at 'tableName' …; Value 'INVALID' at 'returnValues' …;
    /// Value null at 'key' …`), where with its key the 2026 validator reports one error.
    static let missingMemberAnswers2025: Set<String> = ["UpdateItemInput"]

    /// Whether this is a required member left out (`Value null at '<member>' … must not be null`).
    var isMissingMember: Bool { value == nil && value2025 == nil && constraint == ValueRules.notNullText }

    /// The `ValidationException` for a request's violations, in both wordings.
    static func error(for violations: [ConstraintViolation], order2025: [String] = []) -> DynamoError {
        .validation(message(for: violations), v2025: message2025(for: violations, order2025: order2025))
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
        let violation = ConstraintViolation(
            path: path, value: value, constraint: ValueRules.maxLengthText(maximum), path2025: path, value2025: value)
        return ConstraintViolation.error(for: [violation])
    }

    /// This error as DynamoDB's 2026 request validator reports it: a `ValidationException`'s
    /// message in the `1 validation error detected: ` envelope; other errors unchanged. The
    /// 2025 wording has no envelope: its form is the message as it was (its own 2025 form, if
    /// it has one).
    ///
    /// The validator of PutItem, UpdateItem and DeleteItem (captured against us-east-1 on
    /// 2026-08-12) wraps the messages of every check it makes before the table is looked up
    /// (attribute values, expressions and their placeholders); checks that need the table
    /// (`Cannot update attribute pk. This attribute is part of the key`) stay bare.
    package var inValidationEnvelope: DynamoError {
        guard code == .validation, let message else { return self }
        var wrapped = self
        wrapped.message = ConstraintViolation.enveloped(message)
        wrapped.message2025 = message2025 ?? message
        return wrapped
    }
}
