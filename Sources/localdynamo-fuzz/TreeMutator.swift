import DynamoAPI

/// Seeded mutations of a JSON request's tree rather than its bytes, so the result still parses
/// and reaches the shapes' validation: a node replaced by another type or by a DynamoDB value of
/// another type, a member dropped, renamed to another field of the API or duplicated under one, a
/// node wrapped in an array or an object, an array emptied or repeated, a string made empty,
/// huge or an enum value of another field, a number made extreme.
struct TreeMutator {
    /// Field names of the API, values of its enums and attribute values of every type.
    static let fieldNames = [
        "TableName", "Key", "Item", "IndexName", "Limit", "ExclusiveStartKey", "ExpressionAttributeNames",
        "ExpressionAttributeValues", "ReturnValues", "Select", "KeySchema", "AttributeDefinitions",
        "ProvisionedThroughput", "RequestItems", "TransactItems", "Statement", "Parameters", "Segment",
        "TotalSegments", "ConditionExpression", "UpdateExpression", "KeyConditionExpression", "FilterExpression",
        "ProjectionExpression", "AttributeUpdates", "Expected", "KeyConditions", "ScanFilter", "QueryFilter",
        "ConsistentRead", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "ClientRequestToken",
        "GlobalSecondaryIndexes", "LocalSecondaryIndexes", "StreamSpecification", "BillingMode", "Put", "Update",
        "Delete", "ConditionCheck", "PutRequest", "DeleteRequest", "Keys", "AttributesToGet", "S", "N", "B", "SS",
        "NS", "BS", "M", "L", "NULL", "BOOL", "AttributeName", "AttributeType", "KeyType", "Projection",
        "ProjectionType", "NonKeyAttributes", "ReadCapacityUnits", "WriteCapacityUnits",
    ]
    static let strings = [
        "", "ALL_NEW", "ALL_OLD", "UPDATED_NEW", "NONE", "HASH", "RANGE", "PAY_PER_REQUEST", "PROVISIONED", "COUNT",
        "SPECIFIC_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "TOTAL", "INDEXES", "SIZE", "EQ", "BETWEEN", "IN",
        "BEGINS_WITH", "S", "N", "B", "KEYS_ONLY", "INCLUDE", "ALL", "#n", ":v", "a.b[1]", "AA==", "not base64",
        "1e126", "-0", "\u{0}", "\u{FFFF}",
    ]
    static let values: [JSONValue] = [
        .object(["S": .string("x")]), .object(["S": .string("")]), .object(["N": .string("1")]),
        .object(["N": .string("1e200")]), .object(["N": .number("1")]), .object(["B": .string("AA==")]),
        .object(["B": .string("")]), .object(["SS": .array([])]), .object(["SS": .array([.string("a"), .string("a")])]),
        .object(["NS": .array([.string("1"), .string("1.0")])]), .object(["BS": .array([.string("")])]),
        .object(["M": .object([:])]), .object(["M": .object(["k": .object(["S": .string("v")])])]),
        .object(["L": .array([])]), .object(["NULL": .bool(true)]), .object(["NULL": .bool(false)]),
        .object(["BOOL": .bool(true)]), .object(["BOOL": .string("true")]),
        .object(["S": .string("a"), "N": .string("1")]), .object([:]),
    ]
    static let numbers = ["0", "-1", "1", "2147483648", "-9223372036854775809", "1e400", "0.5", "100", "1000", "1000000"]

    /// One to four stacked mutations of `tree`.
    static func mutate(_ tree: JSONValue, using mutator: inout Mutator) -> JSONValue {
        var tree = tree
        for _ in 0..<(1 + mutator.below(4)) {
            let count = nodeCount(tree)
            var target = mutator.below(count)
            tree = mutateNode(tree, at: &target, using: &mutator)
        }
        return tree
    }

    private static func nodeCount(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + elements.reduce(0) { $0 + nodeCount($1) }
        case .object(let members): 1 + members.values.reduce(0) { $0 + nodeCount($1) }
        default: 1
        }
    }

    /// Walks to the `target`-th node (pre-order, members in sorted order so a seed is repeatable)
    /// and changes it.
    private static func mutateNode(_ value: JSONValue, at target: inout Int, using mutator: inout Mutator) -> JSONValue {
        if target == 0 {
            target = -1
            return changed(value, using: &mutator)
        }
        target -= 1
        switch value {
        case .array(var elements):
            for index in elements.indices where target >= 0 {
                elements[index] = mutateNode(elements[index], at: &target, using: &mutator)
            }
            return .array(elements)
        case .object(var members):
            for name in members.keys.sorted() where target >= 0 {
                members[name] = mutateNode(members[name]!, at: &target, using: &mutator)
            }
            return .object(members)
        default:
            return value
        }
    }

    private static func changed(_ value: JSONValue, using mutator: inout Mutator) -> JSONValue {
        switch mutator.below(10) {
        case 0: return mutator.pick(values)
        case 1: return mutator.pick([.null, .bool(mutator.chance(50)), .number(mutator.pick(numbers)), .string(""), .array([]), .object([:])])
        case 2: return .array([value])
        case 3: return .object([mutator.pick(fieldNames): value])
        case 4:
            guard case .object(var members) = value, !members.isEmpty else { return mutator.pick(values) }
            let name = mutator.pick(members.keys.sorted())
            let moved = members.removeValue(forKey: name)
            if mutator.chance(50), let moved { members[mutator.pick(fieldNames)] = moved }
            return .object(members)
        case 5:
            guard case .object(var members) = value else { return .string(mutator.pick(strings)) }
            let copied = members.keys.sorted().first.flatMap { members[$0] } ?? .null
            members[mutator.pick(fieldNames)] = mutator.chance(50) ? mutator.pick(values) : copied
            return .object(members)
        case 6:
            guard case .array(let elements) = value, let first = elements.first else { return .array([]) }
            return .array(mutator.chance(50) ? [] : Array(repeating: first, count: 2 + mutator.below(mutator.chance(10) ? 200 : 30)))
        case 7:
            let long = String(repeating: "a", count: mutator.pick([256, 1025, 2049, 8_193, 65_536]))
            return .string(mutator.chance(10) ? long : mutator.pick(strings))
        case 8: return .number(mutator.pick(numbers))
        default:
            var nested = value
            for _ in 0..<(1 + mutator.below(mutator.chance(10) ? 200 : 8)) { nested = .object(["M": nested]) }
            return nested
        }
    }
}
