import DynamoAPI

/// A condition on the sort key in a Query.
package enum SortKeyCondition: Sendable, Equatable {
    case equal(AttributeValue)
    case less(AttributeValue)
    case lessOrEqual(AttributeValue)
    case greater(AttributeValue)
    case greaterOrEqual(AttributeValue)
    case between(AttributeValue, AttributeValue)
    case beginsWith(AttributeValue)

    var operands: [AttributeValue] {
        switch self {
        case .equal(let value), .less(let value), .lessOrEqual(let value), .greater(let value),
             .greaterOrEqual(let value), .beginsWith(let value):
            [value]
        case .between(let low, let high): [low, high]
        }
    }
}

/// A Query's key condition: equality on the partition key, optionally a condition on the sort key.
package struct KeyConditionSpec: Sendable, Equatable {
    package var partitionName: String
    package var partitionValue: AttributeValue
    package var sortName: String?
    package var sortCondition: SortKeyCondition?

    package init(partitionName: String, partitionValue: AttributeValue, sortName: String? = nil,
                 sortCondition: SortKeyCondition? = nil) {
        self.partitionName = partitionName
        self.partitionValue = partitionValue
        self.sortName = sortName
        self.sortCondition = sortCondition
    }
}

extension Database {
    /// Reads a page of one partition in sort-key order (reversed when `forward` is false).
    package func query(table reference: String, keyCondition: KeyConditionSpec, forward: Bool,
                       options: ReadOptions) throws -> ReadPage {
        let table = try table(named: reference)
        let (partition, range) = try table.resolve(keyCondition)
        var start: [UInt8]?
        if let startKey = options.exclusiveStartKey {
            let stored = try table.startKey(startKey)
            guard stored.partition == partition.partition else {
                throw DynamoError.validation("The provided starting key is outside query boundaries based on provided conditions")
            }
            start = stored.sort
        }
        return try read { connection in
            try connection.readTransaction {
                let store = ItemStore(table: table, connection: connection)
                return try ReadPager(table: table, options: options).page { last, count in
                    try store.query(partition: partition, range: range, after: last?.key.sort ?? start,
                                    forward: forward, limit: count)
                }
            }
        }
    }
}

extension TableDefinition {
    /// Checks a key condition against the key schema and turns it into a stored partition key
    /// and a sort-key byte range.
    func resolve(_ condition: KeyConditionSpec) throws(DynamoError) -> (StoredKey, SortKeyRange) {
        guard condition.partitionName == partitionKey.name else {
            throw DynamoError.validation("Query condition missed key schema element: \(partitionKey.name)")
        }
        guard partitionKey.type.matches(condition.partitionValue) else {
            throw DynamoError.validation(
                "One or more parameter values were invalid: Condition parameter type does not match schema type")
        }
        guard let partitionBytes = KeyEncoding.encode(condition.partitionValue) else {
            throw DynamoError.validation(
                "One or more parameter values were invalid: Condition parameter type does not match schema type")
        }
        let partition = StoredKey(hash: KeyEncoding.partitionHash(partitionBytes, type: partitionKey.type),
                                  partition: partitionBytes, sort: [])
        guard let sortCondition = condition.sortCondition else { return (partition, .all) }
        guard let sortKey, condition.sortName == sortKey.name else {
            throw DynamoError.validation("Query key condition not supported")
        }
        var bounds: [[UInt8]] = []
        for operand in sortCondition.operands {
            guard sortKey.type.matches(operand), let bytes = KeyEncoding.encode(operand) else {
                throw DynamoError.validation(
                    "One or more parameter values were invalid: Condition parameter type does not match schema type")
            }
            bounds.append(bytes)
        }
        typealias Bound = SortKeyRange.Bound
        let range: SortKeyRange
        switch sortCondition {
        case .equal: range = SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: true),
                                          upper: Bound(bytes: bounds[0], inclusive: true))
        case .less: range = SortKeyRange(lower: nil, upper: Bound(bytes: bounds[0], inclusive: false))
        case .lessOrEqual: range = SortKeyRange(lower: nil, upper: Bound(bytes: bounds[0], inclusive: true))
        case .greater: range = SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: false), upper: nil)
        case .greaterOrEqual: range = SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: true), upper: nil)
        case .between: range = SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: true),
                                            upper: Bound(bytes: bounds[1], inclusive: true))
        case .beginsWith:
            guard sortKey.type != .number else {
                throw DynamoError.validation(
                    "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
            }
            range = SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: true),
                                 upper: Self.prefixSuccessor(bounds[0]).map { Bound(bytes: $0, inclusive: false) })
        }
        return (partition, range)
    }

    /// The smallest byte string greater than every string starting with `prefix` (`nil` when
    /// the prefix is all 0xFF, so nothing bounds it above).
    static func prefixSuccessor(_ prefix: [UInt8]) -> [UInt8]? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }
}
