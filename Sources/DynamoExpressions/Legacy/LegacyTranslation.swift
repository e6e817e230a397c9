import DynamoAPI

/// The legacy (pre-expression) parameters, validated with DynamoDB's messages and translated
/// into the same compiled forms as expressions.
enum LegacyTranslation {

    /// `Expected` (+ `ConditionalOperator`) as a predicate.
    static func expected(
        _ expected: [String: ExpectedAttributeValue],
        conditionalOperator: String?
    ) throws(DynamoError) -> Predicate? {
        var predicates: [Predicate] = []
        for name in expected.keys.sorted() {
            let condition = expected[name]!
            if condition.attributeValueList != nil, condition.value != nil {
                throw ExpressionMessages.valueAttributeValueListCannotUsedTogether(name: name)
            }
            if let op = condition.comparisonOperator?.rawValue {
                if condition.exists != nil {
                    throw ExpressionMessages.existsComparisonOperatorCannotUsedTogether(name: name)
                }
                if op != "NULL", op != "NOT_NULL", condition.attributeValueList == nil, condition.value == nil {
                    throw ExpressionMessages.valueAttributeValueListUsedComparisonOperatorAttribute(op: op, name: name)
                }
                let values = condition.attributeValueList ?? condition.value.map { [$0] } ?? []
                try LegacyComparison.validate(op, values)
                predicates.append(LegacyComparison.predicate(op, attribute: name, values))
            } else if condition.attributeValueList != nil {
                throw ExpressionMessages.attributeValueListOnlyUsedComparisonOperatorAttribute(name: name)
            } else {
                let exists = condition.exists ?? true
                if exists, condition.value == nil {
                    let stated = condition.exists == nil ? "null" : "true"
                    throw ExpressionMessages.valueProvidedWhenExistsAttribute(stated: stated, name: name)
                }
                if !exists, condition.value != nil {
                    throw ExpressionMessages.valueCannotUsedWhenExists(name: name)
                }
                let path = DocumentPath(attribute: name)
                if let value = condition.value {
                    predicates.append(.compare(.equal, .path(path), .value(value)))
                } else {
                    predicates.append(.notExists(path))
                }
            }
        }
        return LegacyComparison.combine(predicates, conditionalOperator: conditionalOperator)
    }

    /// `QueryFilter` or `ScanFilter` (+ `ConditionalOperator`) as a predicate.
    static func filter(_ conditions: [String: Condition], conditionalOperator: String?) throws(DynamoError) -> Predicate? {
        var predicates: [Predicate] = []
        for name in conditions.keys.sorted() {
            let condition = conditions[name]!
            let op = condition.comparisonOperator.rawValue
            let values = condition.attributeValueList ?? []
            try LegacyComparison.validate(op, values)
            predicates.append(LegacyComparison.predicate(op, attribute: name, values))
        }
        return LegacyComparison.combine(predicates, conditionalOperator: conditionalOperator)
    }

    /// `AttributeUpdates` as an update plan, in attribute-name order.
    static func attributeUpdates(_ updates: [String: AttributeValueUpdate]) throws(DynamoError) -> UpdatePlan {
        var actions: [UpdateAction] = []
        for name in updates.keys.sorted() {
            let update = updates[name]!
            let action = update.action?.rawValue ?? "PUT"
            let path = DocumentPath(attribute: name)
            guard let value = update.value else {
                guard action == "DELETE" else {
                    throw ExpressionMessages.onlyDeleteActionAllowedWhen
                }
                actions.append(.remove(path))
                continue
            }
            switch action {
            case "DELETE":
                guard ["SS", "NS", "BS"].contains(value.typeDescriptor) else {
                    throw ExpressionMessages.deleteActionValueSupportedType(typeDescriptor: value.typeDescriptor)
                }
                actions.append(.delete(path, value))
            case "ADD":
                guard ["L", "SS", "NS", "BS", "N"].contains(value.typeDescriptor) else {
                    throw ExpressionMessages.addActionSupportedType(typeDescriptor: value.typeDescriptor)
                }
                actions.append(.add(path, value))
            default:
                actions.append(.set(path, .value(value)))
            }
        }
        return UpdatePlan(actions: actions, isLegacy: true)
    }

    /// `AttributesToGet` as a projection; a repeated name is refused.
    static func attributesToGet(_ names: [String]) throws(DynamoError) -> ProjectionPlan {
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw ExpressionMessages.duplicateValueAttributeName(name: name)
        }
        return ProjectionPlan(attributes: names)
    }
}
