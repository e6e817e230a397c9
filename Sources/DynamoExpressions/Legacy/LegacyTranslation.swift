import DynamoAPI

/// The legacy (pre-expression) parameters, validated with DynamoDB's messages and translated
/// into the same compiled forms as expressions.
enum LegacyTranslation {
    private static let invalid = LegacyComparison.invalid

    /// `Expected` (+ `ConditionalOperator`) as a predicate.
    static func expected(
        _ expected: [String: ExpectedAttributeValue],
        conditionalOperator: String?
    ) throws(DynamoError) -> Predicate? {
        var predicates: [Predicate] = []
        for name in expected.keys.sorted() {
            let condition = expected[name]!
            if condition.attributeValueList != nil, condition.value != nil {
                throw .validation(invalid + "Value and AttributeValueList cannot be used together for Attribute: \(name)")
            }
            if let op = condition.comparisonOperator?.rawValue {
                if condition.exists != nil {
                    throw .validation(invalid + "Exists and ComparisonOperator cannot be used together for Attribute: \(name)")
                }
                if op != "NULL", op != "NOT_NULL", condition.attributeValueList == nil, condition.value == nil {
                    throw .validation(invalid + "Value or AttributeValueList must be used with ComparisonOperator: \(op) for Attribute: \(name)")
                }
                let values = condition.attributeValueList ?? condition.value.map { [$0] } ?? []
                try LegacyComparison.validate(op, values)
                predicates.append(LegacyComparison.predicate(op, attribute: name, values))
            } else if condition.attributeValueList != nil {
                throw .validation(invalid + "AttributeValueList can only be used with a ComparisonOperator for Attribute: \(name)")
            } else {
                let exists = condition.exists ?? true
                if exists, condition.value == nil {
                    let stated = condition.exists == nil ? "null" : "true"
                    throw .validation(invalid + "Value must be provided when Exists is \(stated) for Attribute: \(name)")
                }
                if !exists, condition.value != nil {
                    throw .validation(invalid + "Value cannot be used when Exists is false for Attribute: \(name)")
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
                    throw .validation(invalid + "Only DELETE action is allowed when no attribute value is specified")
                }
                actions.append(.remove(path))
                continue
            }
            switch action {
            case "DELETE":
                guard ["SS", "NS", "BS"].contains(value.typeDescriptor) else {
                    throw .validation(invalid + "DELETE action with value is not supported for the type \(value.typeDescriptor)")
                }
                actions.append(.delete(path, value))
            case "ADD":
                guard ["L", "SS", "NS", "BS", "N"].contains(value.typeDescriptor) else {
                    throw .validation(invalid + "ADD action is not supported for the type \(value.typeDescriptor)")
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
            throw .validation(invalid + "Duplicate value in attribute name: \(name)")
        }
        return ProjectionPlan(attributes: names)
    }
}
