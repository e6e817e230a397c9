import DynamoAPI

// EngineMessages, continued: the reads' sentences: Query, Scan, GetItem-style key reads and the PartiQL SELECT planner.

// MARK: - PartiQL/Database+PartiQLSelect.swift

extension EngineMessages {
    /// Thrown by PartiQLSelect (executeSelect).
    static let tableHasNoSuchIndex = DynamoError.validation("The table does not have the specified index")
}

// MARK: - Reads/Database+Query.swift

extension EngineMessages {
    /// Thrown by Query (init).
    static let providedStartingKeyInvalid = DynamoError.validation("The provided starting key is invalid")

    /// Thrown by Query (checkStartKey).
    static let providedStartingKeyOutsideQuery = DynamoError.validation(
        "The provided starting key is outside query boundaries based on provided conditions")

    /// Thrown by Query (checkStartKey).
    static let startingKeySchemaMismatch = DynamoError.validation("The provided starting key does not match the range key predicate")

    /// Thrown by Query (readingIndex), Query (readableIndex).
    static func tableHasNoIndexNamed(indexName: String) -> DynamoError {
        .validation("The table does not have the specified index: \(indexName)")
    }

    /// Thrown by Query (readableIndex).
    static let consistentReadsNotSupportedGlobal = DynamoError.validation("Consistent reads are not supported on global secondary indexes")

    /// Thrown by Query (readableIndex).
    static func cannotReadFromBackfillingGlobal(name: String) -> DynamoError {
        .validation("Cannot read from backfilling global secondary index: \(name)")
    }

    /// Thrown by Query (indexStartRow).
    static let providedStartingKeyInvalidProvided = DynamoError.validation(
        "The provided starting key is invalid: The provided key element does not match the schema")

    /// Thrown by Query (resolve), ReadRequests (spec), MultiAttributeKeys.resolve, MultiAttributeKeys.condition.
    static func queryConditionMissedKeyElement(_ name: String) -> DynamoError {
        .validation("Query condition missed key schema element: \(name)")
    }

    /// Thrown by Query (resolve), Query (operandBytes).
    static let conditionTypeMismatch = DynamoError.validation(
        "One or more parameter values were invalid: Condition parameter type does not match schema type")

    /// Thrown by Query (resolve), ReadRequests (spec), MultiAttributeKeys.condition.
    static let queryKeyConditionNotSupported = DynamoError.validation("Query key condition not supported")

    /// Thrown by Query (operandBytes).
    static let invalidKeyConditionExpressionIncorrectOperandType = DynamoError.validation(
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
}

// MARK: - Reads/Database+ReadRequests.swift

extension EngineMessages {
    /// Thrown by ReadRequests (query).
    static let eitherKeyConditionsKeyConditionExpressionParameterSpecified = DynamoError.validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")

    /// Thrown by ReadRequests (checkSelect).
    static func duplicateValueAttributeName(duplicate: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Duplicate value in attribute name: \(duplicate)")
    }

    /// Thrown by ReadRequests (checkSelect).
    static func cannotSpecifyProjectionExpressionWhenChoosing(choosing: String) -> DynamoError {
        .validation("Cannot specify the ProjectionExpression when choosing to get \(choosing)")
    }

    /// Thrown by ReadRequests (checkSelect).
    static func cannotSpecifyAttributesToGetWhenChoosing(choosing: String) -> DynamoError {
        .validation("Cannot specify the AttributesToGet when choosing to get \(choosing)")
    }

    /// Thrown by ReadRequests (checkSelect).
    static let specifyAttributesToGetProjectionExpressionWhenChoosing = DynamoError.validation(
        "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")

    /// Thrown by ReadRequests (checkSelect).
    static let allProjectedAttributesUsedOnly = DynamoError.validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")

    /// Thrown by ReadRequests (checkSegments).
    static let totalSegmentsMissing = DynamoError.validation(
        "The TotalSegments parameter is required but was not present in the request when Segment parameter is present")

    /// Thrown by ReadRequests (checkSegments).
    static let segmentMissing = DynamoError.validation(
        "The Segment parameter is required but was not present in the request when parameter TotalSegments is present")

    /// Thrown by ReadRequests (checkSegments). The 2026 form drops the values (paritysuite
    /// registry/splits.json scan-segment-out-of-range-message: eu-west-2 from 2026-09-26).
    static func segmentOutOfRange(segment: Int, total: Int) -> DynamoError {
        .validation(
            "The Segment parameter is zero-based and must be less than parameter TotalSegments",
            v2025:
                "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: \(segment) is not less than TotalSegments: \(total)"
        )
    }

    /// Thrown by ReadRequests (fetchesTableItems).
    static func selectTypeAllAttributesNot(indexName: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index \(indexName) because its projection type is not ALL"
        )
    }

    /// Thrown by ReadRequests (spec).
    static func numberQueryConditionsExceedsNumber(termsCount: Int, keyCount: Int) -> DynamoError {
        .validation("The number of query conditions (\(termsCount)) exceeds the number of key attributes defined in the schema (\(keyCount))")
    }

}

// MARK: - Reads/Database+Scan.swift

extension EngineMessages {
    /// Thrown by Scan (scan).
    static let providedExclusiveStartKeyDoes = DynamoError.validation(
        "The provided Exclusive start key does not map to the provided Segment and TotalSegments values.")

    /// Thrown by Scan (startKey). The 2026 form is Query's short one (paritysuite
    /// registry/splits.json scan-bad-start-key-message: eu-west-2 from 2026-09-26).
    static func startingKeyInvalidBecause(errorMessage: String?) -> DynamoError {
        let short = providedStartingKeyInvalid.message ?? ""
        return .validation(short, v2025: short + ": \(errorMessage ?? "")")
    }
}

// MARK: - Reads/MultiAttributeKeys.swift

extension EngineMessages {
    /// Thrown by MultiAttributeKeys.condition.
    static func rangeKeyAttributesHaveEquality(lacking: [KeyAttribute], sortAttributes: [KeyAttribute], lastIndex: Array<KeyAttribute>.Index)
        -> DynamoError
    {
        .validation(
            "RANGE key attributes \(lacking.map(\.name).joined(separator: ", ")) must have "
                + "equality conditions specified in the query because a condition is present on key " + "attribute \(sortAttributes[lastIndex].name)")
    }
}
