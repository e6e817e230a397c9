import DynamoAPI

/// Turns a KeyConditionExpression's predicate, or legacy `KeyConditions`, into a ``KeyCondition``
/// with DynamoDB's messages (as recorded in dynalite's `validations/index.js` and tests).
enum KeyConditionTranslation {

    static func fromExpression(_ predicate: Predicate) throws(DynamoError) -> KeyCondition {
        var condition = KeyCondition(attributes: [], comparisons: [])
        try collect(predicate, into: &condition)
        return condition
    }

    private static func collect(_ predicate: Predicate, into condition: inout KeyCondition) throws(DynamoError) {
        let term: (String, KeyComparison)
        switch predicate {
        case .and(let left, let right):
            try collect(left, into: &condition)
            try collect(right, into: &condition)
            return
        case .or: throw operatorError("OR")
        case .not: throw operatorError("NOT")
        case .isIn: throw operatorError("IN")
        case .exists: throw operatorError("attribute_exists")
        case .notExists: throw operatorError("attribute_not_exists")
        case .hasType: throw operatorError("attribute_type")
        case .contains: throw operatorError("contains")
        case .compare(.notEqual, _, _): throw operatorError("<>")
        case .compare(let comparator, let left, let right):
            try checkOperands([left, right])
            if case .path(let path) = left, case .value(let value) = right {
                term = (try attribute(path), comparison(comparator, value))
            } else if case .value(let value) = left, case .path(let path) = right {
                term = (try attribute(path), comparison(flip(comparator), value))
            } else {
                throw ExpressionMessages.noKeyAttributeSpecified
            }
        case .between(let operand, let lower, let upper):
            try checkOperands([operand, lower, upper])
            guard case .path(let path) = operand else {
                throw ExpressionMessages.betweenOperatorHaveKeyAttribute
            }
            guard case .value(let low) = lower, case .value(let high) = upper else {
                throw ExpressionMessages.multipleAttributeNamesUsedOne
            }
            term = (try attribute(path), .between(low, high))
        case .beginsWith(let operand, let prefixOperand):
            try checkOperands([operand, prefixOperand])
            guard case .path(let path) = operand else {
                throw ExpressionMessages.beginsOperatorHaveKeyAttribute
            }
            guard case .value(let value) = prefixOperand else {
                throw ExpressionMessages.multipleAttributeNamesUsedOne
            }
            term = (try attribute(path), .beginsWith(value))
        }
        if condition.attributes.contains(term.0) {
            throw ExpressionMessages.keyConditionTwicePerKey
        }
        condition.attributes.append(term.0)
        condition.comparisons.append(term.1)
    }

    private static func operatorError(_ name: String) -> DynamoError {
        ExpressionMessages.invalidOperatorUsedKeyConditionExpression(name: name)
    }

    private static func checkOperands(_ operands: [Operand]) throws(DynamoError) {
        if operands.contains(where: { if case .size = $0 { true } else { false } }) {
            throw ExpressionMessages.keyConditionExpressionsCannotContainNestedOperations
        }
        let paths = operands.filter { if case .path = $0 { true } else { false } }
        if paths.count > 1 { throw ExpressionMessages.multipleAttributeNamesUsedOne }
    }

    private static func attribute(_ path: DocumentPath) throws(DynamoError) -> String {
        guard path.elements.count == 1 else {
            throw ExpressionMessages.keyConditionExpressionsCannotHaveConditionsNested
        }
        return path.attribute
    }

    private static func flip(_ comparator: Comparator) -> Comparator {
        switch comparator {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: comparator
        }
    }

    private static func comparison(_ comparator: Comparator, _ value: AttributeValue) -> KeyComparison {
        switch comparator {
        case .less: .less(value)
        case .lessOrEqual: .lessOrEqual(value)
        case .greater: .greater(value)
        case .greaterOrEqual: .greaterOrEqual(value)
        default: .equal(value)
        }
    }

    /// Legacy `KeyConditions`: one to eight conditions with the indexable operators (a
    /// multi-attribute index key has up to four partition and four sort attributes; the engine
    /// holds a single-attribute key schema to two, ``ExpressionMessages/keyConditionsTooMany``).
    static func fromLegacy(_ conditions: [String: Condition]) throws(DynamoError) -> KeyCondition {
        var result = KeyCondition(attributes: [], comparisons: [])
        for name in conditions.keys.sorted() {
            let condition = conditions[name]!
            let op = condition.comparisonOperator.rawValue
            let values = condition.attributeValueList ?? []
            try LegacyComparison.validate(op, values)
            let comparison: KeyComparison
            switch op {
            case "EQ": comparison = .equal(values[0])
            case "LT": comparison = .less(values[0])
            case "LE": comparison = .lessOrEqual(values[0])
            case "GT": comparison = .greater(values[0])
            case "GE": comparison = .greaterOrEqual(values[0])
            case "BEGINS_WITH": comparison = .beginsWith(values[0])
            case "BETWEEN": comparison = .between(values[0], values[1])
            default: throw ExpressionMessages.attemptedConditionalConstraintIndexableOperation
            }
            result.attributes.append(name)
            result.comparisons.append(comparison)
        }
        if !(1...8).contains(result.attributes.count) {
            throw ExpressionMessages.keyConditionsTooMany
        }
        return result
    }
}
