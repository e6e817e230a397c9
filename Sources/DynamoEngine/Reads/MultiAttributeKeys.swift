import DynamoAPI
import DynamoExpressions

/// Key conditions on DynamoDB's multi-attribute GSI keys (up to four partition and four sort
/// attributes): every partition attribute compared with `=`, conditions on the sort attributes
/// from the left without gaps, every one but the last an `=` (DynamoDB's "RANGE key attributes …
/// must have equality conditions" otherwise).
extension IndexDefinition {
    /// Matches a key condition to this index's multi-attribute key and turns it into a stored
    /// partition key and a range of stored sort keys.
    func resolve(_ terms: [KeyTerm]) throws(DynamoError) -> (StoredKey, SortKeyRange) {
        let keyNames = Set(keyAttributes.map(\.name))
        if let stray = terms.first(where: { !keyNames.contains($0.name) }) {
            throw EngineMessages.queryConditionMissedKeyElement(stray.name)
        }
        func condition(_ name: String) -> KeyComparison? { terms.first { $0.name == name }?.comparison }
        let unsupported = EngineMessages.queryKeyConditionNotSupported

        var partitionBytes: [[UInt8]] = []
        for attribute in partitionAttributes {
            guard let comparison = condition(attribute.name) else {
                throw EngineMessages.queryConditionMissedKeyElement(attribute.name)
            }
            guard case .equal = comparison else { throw unsupported }
            partitionBytes += try TableDefinition.operandBytes(comparison, type: attribute.type)
        }
        // Every sort attribute left of the last one with a condition needs an equality; DynamoDB
        // names all that lack one (missing or a range condition) and the attribute that needs them.
        var given: [(attribute: KeyAttribute, comparison: KeyComparison)] = []
        if let lastIndex = sortAttributes.lastIndex(where: { condition($0.name) != nil }) {
            let lacking = sortAttributes[..<lastIndex].filter { attribute in
                guard let comparison = condition(attribute.name), case .equal = comparison else { return true }
                return false
            }
            if !lacking.isEmpty {
                throw EngineMessages.rangeKeyAttributesHaveEquality(lacking: lacking, sortAttributes: sortAttributes, lastIndex: lastIndex)
            }
            given = sortAttributes[...lastIndex].map { ($0, condition($0.name)!) }
        }
        let partition = storedKey(partition: partitionBytes, sort: [])
        guard let last = given.last else { return (partition, .all) }
        if sortAttributes.count == 1 {
            return (partition, try TableDefinition.sortRange(last.comparison, sortKey: last.attribute))
        }
        var prefix: [UInt8] = []
        for (attribute, comparison) in given.dropLast() {
            prefix += TupleEncoding.component(try TableDefinition.operandBytes(comparison, type: attribute.type)[0])
        }
        let bounds = try TableDefinition.operandBytes(last.comparison, type: last.attribute.type)
        return (partition, Self.tupleRange(last.comparison, bounds: bounds, prefix: prefix))
    }

    /// The range of tuple-encoded sort keys that start with `prefix` (the equal components) and
    /// whose next component satisfies `comparison` (with operand bytes `bounds`).
    static func tupleRange(_ comparison: KeyComparison, bounds: [[UInt8]], prefix: [UInt8]) -> SortKeyRange {
        typealias Bound = SortKeyRange.Bound
        func whole(_ bytes: [UInt8]) -> [UInt8] { prefix + TupleEncoding.component(bytes) }
        func successor(_ bytes: [UInt8]) -> [UInt8]? { TableDefinition.prefixSuccessor(bytes) }
        let prefixStart = prefix.isEmpty ? nil : Bound(bytes: prefix, inclusive: true)
        let prefixEnd = successor(prefix).map { Bound(bytes: $0, inclusive: false) }
        switch comparison {
        case .equal:
            return SortKeyRange(
                lower: Bound(bytes: whole(bounds[0]), inclusive: true),
                upper: successor(whole(bounds[0])).map { Bound(bytes: $0, inclusive: false) })
        case .less:
            return SortKeyRange(lower: prefixStart, upper: Bound(bytes: whole(bounds[0]), inclusive: false))
        case .lessOrEqual:
            return SortKeyRange(
                lower: prefixStart,
                upper: successor(whole(bounds[0])).map { Bound(bytes: $0, inclusive: false) })
        case .greater:
            return SortKeyRange(
                lower: successor(whole(bounds[0])).map { Bound(bytes: $0, inclusive: true) },
                upper: prefixEnd)
        case .greaterOrEqual:
            return SortKeyRange(lower: Bound(bytes: whole(bounds[0]), inclusive: true), upper: prefixEnd)
        case .between:
            return SortKeyRange(
                lower: Bound(bytes: whole(bounds[0]), inclusive: true),
                upper: successor(whole(bounds[1])).map { Bound(bytes: $0, inclusive: false) })
        case .beginsWith:
            let open = prefix + TupleEncoding.component(bounds[0], open: true)
            return SortKeyRange(
                lower: Bound(bytes: open, inclusive: true),
                upper: successor(open).map { Bound(bytes: $0, inclusive: false) })
        }
    }
}
