/// DynamoDB's messages about invalid attribute values, word for word: each sentence once.
///
/// The sets' duplicates are rendered as DynamoDB's 2026 validator prints them (us-east-1,
/// 2026-08-12): members as JSON strings, `["a", "a"]` for a string set and `["",""]of type BS`
/// (no spaces, no space before `of`) for a binary set of base64 strings. The request validators
/// that put these in the `1 validation error detected: ` envelope do so in one place
/// (``DynamoError/inValidationEnvelope``).
enum AttributeValueMessages {
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
        .validation(invalid + "Input collection \(jsonList(members, separator: ", ")) contains duplicates.")
    }

    /// A binary set with a repeated member.
    static func duplicateBinaries(_ members: [[UInt8]]) -> DynamoError {
        let rendered = jsonList(members.map { Base64.encode($0) }, separator: ",")
        return .validation(invalid + "Input collection \(rendered)of type BS contains duplicates.")
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
    /// Thrown by ShapeDecoder.value.
    static func expressionAttributeValuesContainsInvalidValueKey(errorMessage: String?, key: String) -> DynamoError {
        .validation("ExpressionAttributeValues contains invalid value: \(errorMessage ?? "") for key \(key)")
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
    /// Thrown by ItemSize.checkNesting.
    static let nestingLevelsHaveExceededSupported = DynamoError.validation(
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit")
}
