/// The constraints the service model puts on one value: a length (of a string, list or map), a
/// numeric range, a pattern.
///
/// The generated code passes these as literals, so checking costs a few comparisons. Messages
/// use DynamoDB's wording ("Member must have length greater than or equal to 3").
struct ValueRules: Sendable {
    var minLength: Int?
    var maxLength: Int?
    var pattern: ShapePattern?
    var minValue: Int?
    var maxValue: Int?
    /// DynamoDB's rule for a `TableName` that may also be a table ARN (see `tableNameOrARN`).
    var tableNameOrARN: Bool
    /// DynamoDB leaves the value out of this member's violations (`Value at '<path>' …`), as it
    /// does for more than 100 `Keys` of one table in a BatchGetItem.
    var omitsValue: Bool
    /// DynamoDB leaves value and path out (`Failed to satisfy constraint: …`), as its 2026
    /// validator does for the `ReturnValues` of PutItem, UpdateItem and DeleteItem.
    var bare: Bool
    /// DynamoDB reports this member's violation alone, without the request's other violations.
    var reportedAlone: Bool
    /// DynamoDB reports an empty value of this member without the value (under the member's wire
    /// name) and alone, as its 2026 validator does for the `TableName` of PutItem, UpdateItem and
    /// DeleteItem (us-east-1, 2026-08-12).
    var emptyValueAlone: Bool
    /// The enum value set DynamoDB prints for this member instead of the model's
    /// (`[ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]`, with its misspelling, for
    /// `ReturnValues` since 2026).
    var enumValueSet: String?
    /// DynamoDB's request validator does not check this enum member against its value set: the
    /// service refuses an unknown value later, in words of its own (an invalid `TableClass` is
    /// "Invalid table-class parameter provided. …"), so the engine checks it.
    var enumCheckedLater: Bool

    init(
        minLength: Int? = nil, maxLength: Int? = nil, pattern: ShapePattern? = nil,
        minValue: Int? = nil, maxValue: Int? = nil, tableNameOrARN: Bool = false, omitsValue: Bool = false,
        emptyValueAlone: Bool = false, bare: Bool = false, reportedAlone: Bool = false, enumValueSet: String? = nil,
        enumCheckedLater: Bool = false
    ) {
        self.enumCheckedLater = enumCheckedLater
        self.emptyValueAlone = emptyValueAlone
        self.omitsValue = omitsValue
        self.bare = bare
        self.reportedAlone = reportedAlone
        self.enumValueSet = enumValueSet
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.minValue = minValue
        self.maxValue = maxValue
        self.tableNameOrARN = tableNameOrARN
    }

    /// No constraint at all.
    static var none: ValueRules { ValueRules() }

    /// These rules with the model's enum value set, as the 2025 validator printed it.
    var without2026ValueSet: ValueRules {
        var rules = self
        rules.enumValueSet = nil
        return rules
    }

    /// The rule DynamoDB applies to the `TableName` of the data-plane and most control-plane
    /// operations, which since 2024 accept a table ARN as well.
    ///
    /// The model types those members `TableArn` (length 1…1024, no pattern), but DynamoDB still
    /// reports a plain name against the table-name pattern and a 255 maximum, and an empty name
    /// only against the minimum length 1 (observed by the dynamodb-conformance suite, 2026).
    static var tableNameOrARN: ValueRules { ValueRules(tableNameOrARN: true) }

    /// Whether a violation of `value` leaves the value out: always for the members DynamoDB
    /// reports that way, and for an empty value of an ``emptyValueAlone`` member.
    func omitsValue(of value: any ShapeValue) -> Bool {
        omitsValue || isReportedEmpty(value)
    }

    /// Whether a violation of `value` is reported alone.
    func reportsAlone(_ value: any ShapeValue) -> Bool {
        reportedAlone || isReportedEmpty(value)
    }

    private func isReportedEmpty(_ value: any ShapeValue) -> Bool {
        emptyValueAlone && (value as? String)?.isEmpty == true
    }

    var isEmpty: Bool {
        minLength == nil && maxLength == nil && pattern == nil && minValue == nil && maxValue == nil && !tableNameOrARN
    }

    // MARK: Checks

    /// The length constraints `length` breaks (minimum before maximum).
    func lengthViolations(_ length: Int) -> [String] {
        if let minLength, length < minLength { return [Self.minLengthText(minLength)] }
        if let maxLength, length > maxLength { return [Self.maxLengthText(maxLength)] }
        return []
    }

    /// The constraints a string breaks: length first, then the pattern.
    func stringViolations(_ value: String) -> [String] {
        if tableNameOrARN { return tableNameOrARNViolations(value) }
        if isEmpty { return [] }
        var found: [String] = []
        if minLength != nil || maxLength != nil {
            // Java measures strings in UTF-16 code units.
            found = lengthViolations(value.utf16.count)
        }
        if let pattern, !pattern.matches(value) {
            found.append(Self.patternText(pattern))
        }
        return found
    }

    /// The constraints an integer breaks.
    func numberViolations(_ value: Int) -> [String] {
        if let minValue, value < minValue { return [Self.minValueText(minValue)] }
        if let maxValue, value > maxValue { return [Self.maxValueText(maxValue)] }
        return []
    }

    private func tableNameOrARNViolations(_ value: String) -> [String] {
        let length = value.utf16.count
        if value.hasPrefix("arn:") {
            return length > 1024 ? [Self.maxLengthText(1024)] : []
        }
        if length == 0 { return [Self.minLengthText(1)] }
        var found: [String] = []
        if length > 255 { found.append(Self.maxLengthText(255)) }
        if !ShapePattern.tableName.matches(value) { found.append(Self.patternText(.tableName)) }
        return found
    }

    // MARK: Texts

    /// Every constraint, as listed inside DynamoDB's "Member must satisfy constraint: [...]",
    /// "Map keys must satisfy constraint: [...]" and "Map value must satisfy constraint: [...]"
    /// (maximum before minimum, then the pattern, as in its messages).
    var texts: [String] {
        if tableNameOrARN {
            return [Self.maxLengthText(255), Self.minLengthText(1), Self.patternText(.tableName)]
        }
        var texts: [String] = []
        if let maxLength { texts.append(Self.maxLengthText(maxLength)) }
        if let minLength { texts.append(Self.minLengthText(minLength)) }
        if let pattern { texts.append(Self.patternText(pattern)) }
        if let maxValue { texts.append(Self.maxValueText(maxValue)) }
        if let minValue { texts.append(Self.minValueText(minValue)) }
        return texts
    }

    static func minLengthText(_ bound: Int) -> String { "Member must have length greater than or equal to \(bound)" }
    static func maxLengthText(_ bound: Int) -> String { "Member must have length less than or equal to \(bound)" }
    static func minValueText(_ bound: Int) -> String { "Member must have value greater than or equal to \(bound)" }
    static func maxValueText(_ bound: Int) -> String { "Member must have value less than or equal to \(bound)" }
    static func patternText(_ pattern: ShapePattern) -> String {
        "Member must satisfy regular expression pattern: \(pattern.text)"
    }
    static func enumText(_ valueSet: String) -> String { "Member must satisfy enum value set: \(valueSet)" }
    static let notNullText = "Member must not be null"
}
