import DynamoAPI

/// The expression module's DynamoDB messages, word for word: each sentence is written here once and
/// the compiler, the legacy-parameter translation and the key conditions throw these.
/// (`ParameterMessages` holds the messages about expression parameters and placeholders.)
package enum ExpressionMessages {
    /// The opening of DynamoDB's "parameter values were invalid" sentences.
    static let invalidParameters = "One or more parameter values were invalid: "
    /// The opening of the legacy `KeyConditions` sentences.
    static let keyConditionPrefix = "Invalid condition in KeyConditionExpression: "
}

// MARK: - Compiler/CompiledExpressions.swift

extension ExpressionMessages {
    /// Thrown by CompiledExpressions.checkKeyAttributes.
    static func keyAttributeUpdated(attribute: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Cannot update attribute \(attribute). This attribute is part of the key")
    }

    /// Thrown by CompiledExpressions.checkQueryFilter.
    static func keyAttributeInQueryFilter(attribute: String) -> DynamoError {
        .validation("Filter Expression can only contain non-primary key attributes: Primary key attribute: \(attribute)")
    }

    /// Thrown by CompiledExpressions.scalarKey.
    static func keyAttributeNotScalar(name: String) -> DynamoError {
        .validation("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: \(name)")
    }
}

// MARK: - Compiler/ExpressionCompiler.swift

extension ExpressionMessages {
    /// Thrown by ExpressionCompiler.compile.
    static let conditionalOperatorWithoutConditions = DynamoError.validation("ConditionalOperator cannot be used without Filter or Expected")

    /// Thrown by ExpressionCompiler.compile.
    static let conditionalOperatorWithOneCondition = DynamoError.validation(
        "ConditionalOperator can only be used when Filter or Expected has two or more elements")

    /// Thrown by ExpressionCompiler.checkParameters.
    static let expressionAttributeNamesEmpty = DynamoError.validation("ExpressionAttributeNames must not be empty")

    /// Thrown by ExpressionCompiler.checkParameters.
    static func expressionAttributeNamesContainsInvalidValueEmpty(key: String) -> DynamoError {
        .validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key \(key)")
    }

    /// Thrown by ExpressionCompiler.checkParameters.
    static let expressionAttributeValuesEmpty = DynamoError.validation("ExpressionAttributeValues must not be empty")

    /// Thrown by ExpressionCompiler.checkPlaceholderKey.
    static func placeholderTooLong(map: String, size: Int) -> DynamoError {
        .validation("\(map) contains invalid key: The expression attribute map contains a key that is too long; size of key: \(size)")
    }

    /// Thrown by ExpressionCompiler.checkPlaceholderKey.
    static func placeholderSyntaxError(map: String, key: String) -> DynamoError {
        .validation("\(map) contains invalid key: Syntax error; key: \"\(key)\"")
    }

    /// Thrown by ExpressionCompiler.checkUnused.
    static func unusedAttributeNames(keys: String) -> DynamoError {
        .validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {\(keys)}")
    }

    /// Thrown by ExpressionCompiler.checkUnused.
    static func unusedAttributeValues(keys: String) -> DynamoError {
        .validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {\(keys)}")
    }
}

// MARK: - Legacy/KeyConditionTranslation.swift

extension ExpressionMessages {
    /// Thrown by KeyConditionTranslation.collect.
    static let noKeyAttributeSpecified = DynamoError.validation(keyConditionPrefix + "No key attribute specified")

    /// Thrown by KeyConditionTranslation.collect.
    static let betweenOperatorHaveKeyAttribute = DynamoError.validation(
        keyConditionPrefix + "BETWEEN operator must have the key attribute as its first operand")

    /// Thrown by KeyConditionTranslation.collect, KeyConditionTranslation.checkOperands.
    static let multipleAttributeNamesUsedOne = DynamoError.validation(keyConditionPrefix + "Multiple attribute names used in one condition")

    /// Thrown by KeyConditionTranslation.collect.
    static let beginsOperatorHaveKeyAttribute = DynamoError.validation(
        keyConditionPrefix + "begins_with operator must have the key attribute as its first operand")

    /// Thrown by KeyConditionTranslation.collect.
    static let keyConditionTwicePerKey = DynamoError.validation(
        "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key")

    /// Thrown by KeyConditionTranslation.operatorError.
    static func invalidOperatorUsedKeyConditionExpression(name: String) -> DynamoError {
        .validation("Invalid operator used in KeyConditionExpression: \(name)")
    }

    /// Thrown by KeyConditionTranslation.checkOperands.
    static let keyConditionExpressionsCannotContainNestedOperations = DynamoError.validation(
        "KeyConditionExpressions cannot contain nested operations")

    /// Thrown by KeyConditionTranslation.attribute.
    static let keyConditionExpressionsCannotHaveConditionsNested = DynamoError.validation(
        "KeyConditionExpressions cannot have conditions on nested attributes")

    /// Thrown by KeyConditionTranslation.fromLegacy.
    static let attemptedConditionalConstraintIndexableOperation = DynamoError.validation(
        "Attempted conditional constraint is not an indexable operation")

    /// Thrown by KeyConditionTranslation.fromLegacy.
    package static let keyConditionsTooMany = DynamoError.validation("Conditions can be of length 1 or 2 only")
}

// MARK: - Legacy/LegacyComparison.swift

extension ExpressionMessages {
    /// Thrown by LegacyComparison.validate.
    static func comparisonArgumentCount(op: String) -> DynamoError {
        .validation(invalidParameters + "Invalid number of argument(s) for the \(op) ComparisonOperator")
    }

    /// Thrown by LegacyComparison.validate.
    static let attributeValuesInsideAttributeValueListSameType = DynamoError.validation(
        invalidParameters + "AttributeValues inside AttributeValueList must be of same type")

    /// Thrown by LegacyComparison.validate.
    static func comparisonOperatorValidAttributeValueType(op: String, typeDescriptor: String) -> DynamoError {
        .validation(invalidParameters + "ComparisonOperator \(op) is not valid for \(typeDescriptor) AttributeValue type")
    }

    /// Thrown by LegacyComparison.validate.
    static let betweenConditionProvidedRangeWhere = DynamoError.validation(
        "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound")
}

// MARK: - Legacy/LegacyTranslation.swift

extension ExpressionMessages {
    /// Thrown by LegacyTranslation.expected.
    static func valueAttributeValueListCannotUsedTogether(name: String) -> DynamoError {
        .validation(invalidParameters + "Value and AttributeValueList cannot be used together for Attribute: \(name)")
    }

    /// Thrown by LegacyTranslation.expected.
    static func existsComparisonOperatorCannotUsedTogether(name: String) -> DynamoError {
        .validation(invalidParameters + "Exists and ComparisonOperator cannot be used together for Attribute: \(name)")
    }

    /// Thrown by LegacyTranslation.expected.
    static func valueAttributeValueListUsedComparisonOperatorAttribute(op: String, name: String) -> DynamoError {
        .validation(invalidParameters + "Value or AttributeValueList must be used with ComparisonOperator: \(op) for Attribute: \(name)")
    }

    /// Thrown by LegacyTranslation.expected.
    static func attributeValueListOnlyUsedComparisonOperatorAttribute(name: String) -> DynamoError {
        .validation(invalidParameters + "AttributeValueList can only be used with a ComparisonOperator for Attribute: \(name)")
    }

    /// Thrown by LegacyTranslation.expected.
    static func valueProvidedWhenExistsAttribute(stated: String, name: String) -> DynamoError {
        .validation(invalidParameters + "Value must be provided when Exists is \(stated) for Attribute: \(name)")
    }

    /// Thrown by LegacyTranslation.expected.
    static func valueCannotUsedWhenExists(name: String) -> DynamoError {
        .validation(invalidParameters + "Value cannot be used when Exists is false for Attribute: \(name)")
    }

    /// Thrown by LegacyTranslation.attributeUpdates.
    static let onlyDeleteActionAllowedWhen = DynamoError.validation(
        invalidParameters + "Only DELETE action is allowed when no attribute value is specified")

    /// Thrown by LegacyTranslation.attributeUpdates.
    static func deleteActionValueSupportedType(typeDescriptor: String) -> DynamoError {
        .validation(invalidParameters + "DELETE action with value is not supported for the type \(typeDescriptor)")
    }

    /// Thrown by LegacyTranslation.attributeUpdates.
    static func addActionSupportedType(typeDescriptor: String) -> DynamoError {
        .validation(invalidParameters + "ADD action is not supported for the type \(typeDescriptor)")
    }

    /// Thrown by LegacyTranslation.attributesToGet.
    static func duplicateValueAttributeName(name: String) -> DynamoError {
        .validation(invalidParameters + "Duplicate value in attribute name: \(name)")
    }
}

// MARK: - Model/KeyCondition.swift

extension ExpressionMessages {
    /// Thrown by KeyCondition.bind.
    static let queryConditionMissedKeySchema = DynamoError.validation("Query condition missed key schema element")

    /// Thrown by KeyCondition.bind.
    static let queryKeyConditionSupported = DynamoError.validation("Query key condition not supported")

    /// Thrown by KeyCondition.bind.
    static let conditionParameterTypeDoesMatch = DynamoError.validation(
        "One or more parameter values were invalid: Condition parameter type does not match schema type")
}

// MARK: - Syntax/ExpressionKind.swift

extension ExpressionMessages {
    /// Thrown by ExpressionKind.error.
    static func invalid(kindRawValue: String, message: String) -> DynamoError {
        .validation("Invalid \(kindRawValue): \(message)")
    }
}
