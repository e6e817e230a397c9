/// DynamoDB's messages about invalid attribute values, word for word: each sentence once.
///
/// The sets' duplicates are rendered in both wordings (``ErrorWording``): DynamoDB's 2026
/// validator prints members as JSON strings, `["a", "a"]` for a string set and `["",""]of type BS`
/// (no spaces, no space before `of`) for a binary set of base64 strings; the 2025 one printed
/// them bare, `[a, a]` (the four-region capture of 2026-06-09). The request validators that put
/// these in the `1 validation error detected: ` envelope do so in one place
/// (``DynamoError/inValidationEnvelope``).
package enum AttributeValueMessages {
    private static let invalid = "One or more parameter values were invalid: "

    /// An empty string or number set: `An string set  may not be empty` (article and double
    /// space are DynamoDB's).
    static func emptySet(_ kind: String) -> DynamoError {
        .validation(invalid + "An \(kind) set  may not be empty")
    }

    /// An empty binary set.
    static let emptyBinarySet = DynamoError.validation(invalid + "Binary sets should not be empty")

    /// A string set with a repeated member.
    static func duplicateStrings(_ members: [String]) -> DynamoError {
        .validation(
            invalid + "Input collection \(jsonList(members, separator: ", ")) contains duplicates.",
            v2025: invalid + "Input collection [\(members.joined(separator: ", "))] contains duplicates.")
    }

    /// A binary set with a repeated member.
    static func duplicateBinaries(_ members: [[UInt8]]) -> DynamoError {
        let encoded = members.map { Base64.encode($0) }
        return .validation(
            invalid + "Input collection \(jsonList(encoded, separator: ","))of type BS contains duplicates.",
            v2025: invalid + "Input collection [\(encoded.joined(separator: ", "))]of type BS contains duplicates.")
    }

    /// `{"NULL": false}` (the request validators that envelope value errors put it in the envelope).
    static let nullFalse = DynamoError.validation(
        invalid + "Null attribute value types must have the value of true")

    /// Examples of every message here that DynamoDB's 2026 rollout changed, in both forms (the
    /// catalog test checks each has two).
    package static var rolloutSamples: [DynamoError] {
        [duplicateStrings(["a", "a"]), duplicateBinaries([[0], [0]])]
    }

    /// A number set with a repeated member (DynamoDB names no members here).
    static let duplicateNumbers = DynamoError.validation("Input collection contains duplicates")

    /// `["a", "b"]`: the members as JSON strings.
    private static func jsonList(_ members: [String], separator: String) -> String {
        let quoted = members.map { member in
            var writer = JSONWriter(reservingCapacity: member.utf8.count + 2)
            writer.write(string: member)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        return "[" + quoted.joined(separator: separator) + "]"
    }
}

// MARK: - Shapes/ShapeDecoder.swift

extension AttributeValueMessages {
    /// An invalid value under `key` of `ExpressionAttributeValues`: `error`'s message wrapped
    /// (`ExpressionAttributeValues contains invalid value: … for key :v`); with
    /// `unwrappedIn2026` (the inputs DynamoDB's 2026 validator envelopes) the 2026 form is
    /// `error` itself and only the 2025 form is wrapped.
    static func expressionAttributeValuesContainsInvalidValueKey(
        _ error: DynamoError, key: String, unwrappedIn2026: Bool
    ) -> DynamoError {
        func wrapped(_ message: String?) -> String {
            "ExpressionAttributeValues contains invalid value: \(message ?? "") for key \(key)"
        }
        let v2025 = wrapped(error.message2025 ?? error.message)
        return .validation(unwrappedIn2026 ? error.message ?? "" : wrapped(error.message), v2025: v2025)
    }
}

// MARK: - Values/AttributeValue+JSON.swift

extension AttributeValueMessages {
    /// Thrown by AttributeValue+JSON.init.
    static let suppliedAttributeValueEmptyContainExactly = DynamoError.validation(
        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")

    /// Thrown by AttributeValue+JSON.init.
    static let suppliedAttributeValueMoreThanOne = DynamoError.validation(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
}

// MARK: - Values/DynamoNumber+KeyEncoding.swift

extension AttributeValueMessages {
    /// Thrown by DynamoNumber+KeyEncoding.init.
    static let storedNumberKeyCorrupt = DynamoError(.internalServerError, "Stored number key is corrupt")
}

// MARK: - Values/ItemSize.swift

extension AttributeValueMessages {
    /// Thrown by ItemSize.checkAttributeNames.
    static let emptyAttributeName = DynamoError.validation("Empty attribute name")

    /// Thrown by ItemSize.checkNesting.
    static let nestingLevelsHaveExceededSupported = DynamoError.validation(
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit")
}
