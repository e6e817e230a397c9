import DynamoAPI
import DynamoExpressions

/// One condition of a key condition: an attribute and what it must satisfy.
package struct KeyTerm: Sendable, Equatable {
    package var name: String
    package var comparison: KeyComparison

    package init(name: String, comparison: KeyComparison) {
        self.name = name
        self.comparison = comparison
    }
}

/// A Query's key condition: equality on the partition key, optionally a condition on the sort key.
///
/// For an index with multi-attribute keys the conditions stay as written in `terms` (matched
/// to the key schema by the engine) and the single-key members are unused.
package struct KeyConditionSpec: Sendable, Equatable {
    package var partitionName: String
    package var partitionValue: AttributeValue
    package var sortName: String?
    package var sortCondition: KeyComparison?
    /// Every condition as written, for a multi-attribute index key.
    package var terms: [KeyTerm] = []

    /// A key condition for a multi-attribute index key.
    package init(terms: [KeyTerm]) {
        self.init(partitionName: "", partitionValue: .null)
        self.terms = terms
    }

    package init(
        partitionName: String, partitionValue: AttributeValue, sortName: String? = nil,
        sortCondition: KeyComparison? = nil
    ) {
        self.partitionName = partitionName
        self.partitionValue = partitionValue
        self.sortName = sortName
        self.sortCondition = sortCondition
    }
}

extension Database {
    /// Query's answer to an `ExclusiveStartKey` that does not fit the table (or index) key: the
    /// bare sentence, where Scan adds the reason (measured by the dynamodb-conformance suite).
    static let invalidQueryStartKey = EngineMessages.providedStartingKeyInvalid

    /// A Query's `ExclusiveStartKey` must lie in the partition it reads and satisfy its sort key
    /// condition, or DynamoDB refuses it with these messages.
    static func checkStartKey(
        partition: [UInt8], sort: [UInt8], within queried: [UInt8],
        _ range: SortKeyRange
    ) throws(DynamoError) {
        guard partition == queried else {
            throw EngineMessages.providedStartingKeyOutsideQuery
        }
        guard range.contains(sort) else {
            throw EngineMessages.startingKeySchemaMismatch
        }
    }

    /// Reads a page of one partition in sort-key order (reversed when `forward` is false), from
    /// the table or from one of its secondary indexes.
    ///
    /// - Parameters:
    ///   - indexName: the index to read, or `nil` for the table.
    ///   - fetchTableItems: for a local index, return the table's full items rather than the
    ///     projected entries (DynamoDB fetches unprojected attributes from the table).
    package func query(
        table reference: String, index indexName: String? = nil, keyCondition: KeyConditionSpec,
        forward: Bool, fetchTableItems: Bool = false, options: ReadOptions
    ) throws -> ReadPage {
        let table = try table(named: reference)
        guard let indexName else {
            let (partition, range) = try table.resolve(
                keyCondition, partitionKey: table.partitionKey,
                sortKey: table.sortKey)
            var start: [UInt8]?
            if let startKey = options.exclusiveStartKey {
                let stored: StoredKey
                do { stored = try table.startKey(startKey) } catch { throw Self.invalidQueryStartKey }
                try Self.checkStartKey(partition: stored.partition, sort: stored.sort, within: partition.partition, range)
                start = stored.sort
            }
            // A page of one batch (most pages) is one statement: no BEGIN and COMMIT.
            return try read { connection in
                try connection.readInOneSnapshot { beforeStatement in
                    let store = ItemStore(table: table, connection: connection)
                    var pager = ReadPager(table: table, options: options)
                    // Only in `service` mode: nothing is built for a read in `exact` mode.
                    if !options.consistentRead, consistency.isActive {
                        readEventually(
                            &pager, table: table, index: nil,
                            start: start.map { GhostMerge.position(StoredKey(hash: partition.hash, partition: partition.partition, sort: $0)) },
                            within: GhostMerge.within(partition, range), order: GhostMerge.queryOrder(forward: forward))
                    }
                    return try pager.page { last, count in
                        try beforeStatement()
                        return try store.query(
                            partition: partition, range: range, after: last?.key.sort ?? start,
                            forward: forward, limit: count)
                    }
                }
            }
        }
        let index = try table.readableIndex(indexName, consistentRead: options.consistentRead)
        let (partition, range) =
            index.isMultiAttribute
            ? try index.resolve(keyCondition.terms)
            : try table.resolve(keyCondition, partitionKey: index.partitionKey, sortKey: index.sortKey)
        let start: ItemStore.Row?
        do {
            start = try options.exclusiveStartKey.map { try table.indexStartRow($0, index: index) }
        } catch {
            throw Self.invalidQueryStartKey
        }
        if let start {
            // A multi-attribute sort condition's bounds are tuple prefixes: only the partition is checked.
            try Self.checkStartKey(
                partition: start.key.partition, sort: start.key.sort, within: partition.partition,
                index.isMultiAttribute ? .all : range)
        }
        return try readingIndex(index) { connection in
            try connection.readTransaction {
                let store = IndexStore(table: table, index: index, connection: connection)
                var pager = ReadPager(table: table, options: options, index: index)
                if fetchTableItems { pager.fetch = Self.tableItemFetcher(table: table, connection: connection) }
                // Only in `service` mode: nothing is built for a read in `exact` mode.
                if !options.consistentRead, consistency.isActive {
                    readEventually(
                        &pager, table: table, index: index, start: start, within: GhostMerge.within(partition, range),
                        order: GhostMerge.queryOrder(forward: forward))
                }
                return try pager.page { last, count in
                    try store.query(
                        partition: partition, range: range, after: last ?? start, forward: forward,
                        limit: count)
                }
            }
        }
    }

    /// Runs an index read; an index deleted (its table dropped) between the lookup of its
    /// definition and the read is reported as missing, as a read that came a moment later would be.
    func readingIndex<T: Sendable>(_ index: IndexDefinition, _ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try read(body)
        } catch let error as SQLiteError where error.message.hasPrefix("no such table") {
            throw EngineMessages.tableHasNoIndexNamed(indexName: index.name)
        }
    }

    /// Reads an index entry's full item from the table.
    static func tableItemFetcher(
        table: TableDefinition,
        connection: SQLiteConnection
    ) -> (ItemStore.Row) throws -> [UInt8]? {
        let items = ItemStore(table: table, connection: connection)
        return { row in try row.tableKey.flatMap { try items.get($0)?.json } }
    }
}

extension TableDefinition {
    /// The index a Query or Scan names, checked for the read it is asked for: a vector index
    /// refuses both (only SearchVectors reads one).
    ///
    /// - Parameter operation: `Query` or `Scan`, as the refusal of a vector index names it.
    package func readableIndex(_ name: String, consistentRead: Bool, operation: String = "Query") throws(DynamoError) -> IndexDefinition {
        if vectorIndex(named: name) != nil { throw EngineMessages.operationNotOnVectorIndex(operation) }
        guard let index = index(named: name) else {
            throw EngineMessages.tableHasNoIndexNamed(indexName: name)
        }
        if index.isGlobal && consistentRead {
            throw EngineMessages.consistentReadsNotSupportedGlobal
        }
        if index.status == .creating {
            throw EngineMessages.cannotReadFromBackfillingGlobal(name: name)
        }
        return index
    }

    /// Validates an index read's `ExclusiveStartKey` (the table key plus the index key) and
    /// turns it into the row it names.
    func indexStartRow(_ key: Item, index: IndexDefinition) throws(DynamoError) -> ItemStore.Row {
        let invalid = EngineMessages.providedStartingKeyInvalidProvided
        let names = Set(keyAttributes.map(\.name) + index.keyAttributes.map(\.name))
        guard Set(key.keys) == names else { throw invalid }
        let tableKey: StoredKey
        do { tableKey = try storedKey(fromKey: keyOnly(key)) } catch { throw invalid }
        let indexKey: StoredKey?
        do { indexKey = try index.storedKey(of: key) } catch { throw invalid }
        guard let indexKey else { throw invalid }
        return ItemStore.Row(key: indexKey, json: [], size: 0, tableKey: tableKey)
    }
}

extension TableDefinition {
    /// Checks a key condition against a key schema (the table's or an index's) and turns it into
    /// a stored partition key and a sort-key byte range.
    func resolve(
        _ condition: KeyConditionSpec, partitionKey: KeyAttribute,
        sortKey: KeyAttribute?
    ) throws(DynamoError) -> (StoredKey, SortKeyRange) {
        guard condition.partitionName == partitionKey.name else {
            throw EngineMessages.queryConditionMissedKeyElement(partitionKey.name)
        }
        guard partitionKey.type.matches(condition.partitionValue) else {
            throw EngineMessages.conditionTypeMismatch
        }
        guard let partitionBytes = KeyEncoding.encode(condition.partitionValue) else {
            throw EngineMessages.conditionTypeMismatch
        }
        let partition = StoredKey(
            hash: KeyEncoding.partitionHash(partitionBytes, type: partitionKey.type),
            partition: partitionBytes, sort: [])
        guard let sortCondition = condition.sortCondition else { return (partition, .all) }
        guard let sortKey, condition.sortName == sortKey.name else {
            throw EngineMessages.queryKeyConditionNotSupported
        }
        return (partition, try Self.sortRange(sortCondition, sortKey: sortKey))
    }

    /// The stored-byte range of a single-attribute sort key that satisfies `condition`.
    static func sortRange(_ condition: KeyComparison, sortKey: KeyAttribute) throws(DynamoError) -> SortKeyRange {
        let bounds = try operandBytes(condition, type: sortKey.type)
        typealias Bound = SortKeyRange.Bound
        switch condition {
        case .equal:
            return SortKeyRange(
                lower: Bound(bytes: bounds[0], inclusive: true),
                upper: Bound(bytes: bounds[0], inclusive: true))
        case .less: return SortKeyRange(lower: nil, upper: Bound(bytes: bounds[0], inclusive: false))
        case .lessOrEqual: return SortKeyRange(lower: nil, upper: Bound(bytes: bounds[0], inclusive: true))
        case .greater: return SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: false), upper: nil)
        case .greaterOrEqual: return SortKeyRange(lower: Bound(bytes: bounds[0], inclusive: true), upper: nil)
        case .between:
            return SortKeyRange(
                lower: Bound(bytes: bounds[0], inclusive: true),
                upper: Bound(bytes: bounds[1], inclusive: true))
        case .beginsWith:
            return SortKeyRange(
                lower: Bound(bytes: bounds[0], inclusive: true),
                upper: prefixSuccessor(bounds[0]).map { Bound(bytes: $0, inclusive: false) })
        }
    }

    /// The key bytes of a condition's operands, checked against the key's type (`begins_with`
    /// takes no numbers).
    static func operandBytes(_ condition: KeyComparison, type: KeyScalarType) throws(DynamoError) -> [[UInt8]] {
        var bounds: [[UInt8]] = []
        for operand in condition.values {
            guard type.matches(operand), let bytes = KeyEncoding.encode(operand) else {
                throw EngineMessages.conditionTypeMismatch
            }
            bounds.append(bytes)
        }
        if case .beginsWith = condition, type == .number {
            throw EngineMessages.invalidKeyConditionExpressionIncorrectOperandType
        }
        return bounds
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
