import DynamoAPI
import DynamoExpressions

/// Turns a statement's constant expressions into attribute values, binding `?` to
/// `Parameters` in order.
struct PartiQLBinder {
    let parameters: [AttributeValue]

    /// The value of a constant expression, or `nil` when it reads the item (a path, a function).
    ///
    /// - Throws: DynamoDB's messages for bags (sets) it cannot build and tuples with non-string keys.
    func constant(_ expression: PartiQLExpression) throws(DynamoError) -> AttributeValue? {
        switch expression {
        case .literal(let value):
            return value
        case .parameter(let index):
            guard index < parameters.count else { throw PartiQLMessages.parameterCount }
            return parameters[index]
        case .negate(let inner):
            guard let value = try constant(inner) else { return nil }
            guard case .n(let number) = value else { throw PartiQLMessages.conditionOperator("-") }
            return .n(-number)
        case .list(let members):
            var values: [AttributeValue] = []
            for member in members {
                guard let value = try constant(member) else { return nil }
                values.append(value)
            }
            return .l(values)
        case .tuple(let pairs):
            var map: [String: AttributeValue] = [:]
            for pair in pairs {
                guard let key = try constant(pair.key) else { return nil }
                guard case .s(let name) = key else { throw PartiQLMessages.tupleKeyType(Self.typeName(key)) }
                if case .missing = pair.value { continue }
                guard let value = try constant(pair.value) else { return nil }
                if map[name] != nil { throw PartiQLMessages.duplicateTupleKey(name) }
                map[name] = value
            }
            return .m(map)
        case .bag(let members):
            return try bag(members)
        default:
            return nil
        }
    }

    /// `<<…>>`: a string set or a number set, never empty, without duplicates.
    private func bag(_ members: [PartiQLExpression]) throws(DynamoError) -> AttributeValue {
        guard !members.isEmpty else { throw PartiQLMessages.emptyBag }
        var strings: [String] = []
        var numbers: [DynamoNumber] = []
        for member in members {
            switch member {
            case .literal(.s(let text)): strings.append(text)
            case .literal(.n(let number)): numbers.append(number)
            case .negate(.literal(.n(let number))): numbers.append(-number)
            default: throw PartiQLMessages.bagType
            }
        }
        if !strings.isEmpty, !numbers.isEmpty { throw PartiQLMessages.bagType }
        if !strings.isEmpty {
            guard Set(strings).count == strings.count else { throw PartiQLMessages.bagDuplicateStrings(strings) }
            return .ss(strings)
        }
        guard Set(numbers.map(\.description)).count == numbers.count else { throw PartiQLMessages.bagDuplicates }
        return .ns(numbers)
    }

    /// PartiQL's name for a value's type, as its messages print it.
    static func typeName(_ value: AttributeValue) -> String {
        switch value {
        case .s: "STRING"
        case .n: "DECIMAL"
        case .b: "BLOB"
        case .bool: "BOOL"
        case .null: "NULL"
        case .l: "LIST"
        case .m: "STRUCT"
        case .ss, .ns, .bs: "BAG"
        }
    }
}
