import DynamoAPI

/// The legacy `ComparisonOperator`s (`Expected`, `QueryFilter`, `ScanFilter`, `KeyConditions`):
/// their argument counts, the value types they take, and their translation into predicates.
enum LegacyComparison {

    /// How many values each operator takes (`IN`: one or more).
    static func acceptsCount(_ op: String, _ count: Int) -> Bool {
        switch op {
        case "NULL", "NOT_NULL": count == 0
        case "EQ", "NE", "LE", "LT", "GE", "GT", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH": count == 1
        case "IN": count >= 1
        case "BETWEEN": count == 2
        default: false
        }
    }

    /// The value types each operator takes (dynalite's `validateConditions`, recorded against
    /// DynamoDB). `EQ` and `NE` take every type, lists, maps, booleans and nulls included
    /// ("supported for all data types, including lists and maps", DynamoDB's API reference;
    /// dynalite's list predates those types).
    static let allowedTypes: [String: Set<String>] = [
        "LE": ["S", "N", "B"], "LT": ["S", "N", "B"], "GE": ["S", "N", "B"], "GT": ["S", "N", "B"],
        "CONTAINS": ["S", "N", "B"], "NOT_CONTAINS": ["S", "N", "B"], "BEGINS_WITH": ["S", "B"],
        "IN": ["S", "N", "B"], "BETWEEN": ["S", "N", "B"],
    ]

    /// The checks every legacy condition's `AttributeValueList` gets: count, one type, types the
    /// operator takes, BETWEEN bounds in order.
    static func validate(_ op: String, _ values: [AttributeValue], checkTypes: Bool = true) throws(DynamoError) {
        guard acceptsCount(op, values.count) else {
            throw ExpressionMessages.comparisonArgumentCount(op: op)
        }
        if let first = values.first, values.contains(where: { $0.typeDescriptor != first.typeDescriptor }) {
            throw ExpressionMessages.attributeValuesInsideAttributeValueListSameType
        }
        if checkTypes, let allowed = allowedTypes[op] {
            for value in values where !allowed.contains(value.typeDescriptor) {
                throw ExpressionMessages.comparisonOperatorValidAttributeValueType(op: op, typeDescriptor: value.typeDescriptor)
            }
        }
        if op == "BETWEEN", let order = Ordering.compare(values[0], values[1]), order > 0 {
            throw ExpressionMessages.betweenConditionProvidedRangeWhere
        }
    }

    /// The predicate a validated legacy condition on the top-level attribute `name` stands for.
    static func predicate(_ op: String, attribute name: String, _ values: [AttributeValue]) -> Predicate {
        let path = DocumentPath(attribute: name)
        let attribute = Operand.path(path)
        switch op {
        case "NULL": return .notExists(path)
        case "NOT_NULL": return .exists(path)
        case "EQ": return .compare(.equal, attribute, .value(values[0]))
        case "NE": return .compare(.notEqual, attribute, .value(values[0]))
        case "LE": return .compare(.lessOrEqual, attribute, .value(values[0]))
        case "LT": return .compare(.less, attribute, .value(values[0]))
        case "GE": return .compare(.greaterOrEqual, attribute, .value(values[0]))
        case "GT": return .compare(.greater, attribute, .value(values[0]))
        case "CONTAINS": return .contains(attribute, .value(values[0]))
        // A missing attribute neither contains nor lacks the value.
        case "NOT_CONTAINS": return .and(.exists(path), .not(.contains(attribute, .value(values[0]))))
        case "BEGINS_WITH": return .beginsWith(attribute, .value(values[0]))
        case "IN": return .isIn(attribute, values.map { .value($0) })
        default: return .between(attribute, lower: .value(values[0]), upper: .value(values[1]))
        }
    }

    /// Joins per-attribute predicates with `ConditionalOperator` (AND unless `OR`).
    static func combine(_ predicates: [Predicate], conditionalOperator: String?) -> Predicate? {
        guard var result = predicates.first else { return nil }
        for predicate in predicates.dropFirst() {
            result = conditionalOperator == "OR" ? .or(result, predicate) : .and(result, predicate)
        }
        return result
    }
}
