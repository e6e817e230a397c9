import DynamoAPI
import DynamoExpressions

/// A Query's key condition: equality on the partition key, optionally a condition on the sort key.
package struct KeyConditionSpec: Sendable, Equatable {
    package var partitionName: String
    package var partitionValue: AttributeValue
    package var sortName: String?
    package var sortCondition: KeyComparison?

    package init(partitionName: String, partitionValue: AttributeValue, sortName: String? = nil,
                 sortCondition: KeyComparison? = nil) {
        self.partitionName = partitionName
        self.partitionValue = partitionValue
        self.sortName = sortName
        self.sortCondition = sortCondition
    }
}

extension Database {
    /// Reads a page of one partition in sort-key order (reversed when `forward` is false), from
    /// the table or from one of its secondary indexes.
    ///
    /// - Parameters:
    ///   - indexName: the index to read, or `nil` for the table.
    ///   - fetchTableItems: for a local index, return the table's full items rather than the
    ///     projected entries (DynamoDB fetches unprojected attributes from the table).
    package func query(table reference: String, index indexName: String? = nil, keyCondition: KeyConditionSpec,
                       forward: Bool, fetchTableItems: Bool = false, options: ReadOptions) throws -> ReadPage {
        let table = try table(named: reference)
        guard let indexName else {
            let (partition, range) = try table.resolve(keyCondition, partitionKey: table.partitionKey,
                                                       sortKey: table.sortKey)
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
        let index = try table.readableIndex(indexName, consistentRead: options.consistentRead)
        let (partition, range) = try table.resolve(keyCondition, partitionKey: index.partitionKey, sortKey: index.sortKey)
        let start = try options.exclusiveStartKey.map { try table.indexStartRow($0, index: index) }
        return try read { connection in
            try connection.readTransaction {
                let store = IndexStore(table: table, index: index, connection: connection)
                var pager = ReadPager(table: table, options: options, index: index)
                if fetchTableItems { pager.fetch = Self.tableItemFetcher(table: table, connection: connection) }
                return try pager.page { last, count in
                    try store.query(partition: partition, range: range, after: last ?? start, forward: forward,
                                    limit: count)
                }
            }
        }
    }

    /// Reads an index entry's full item from the table.
    static func tableItemFetcher(table: TableDefinition,
                                 connection: SQLiteConnection) -> (ItemStore.Row) throws -> [UInt8]? {
        let items = ItemStore(table: table, connection: connection)
        return { row in try row.tableKey.flatMap { try items.get($0)?.json } }
    }
}

extension TableDefinition {
    /// The index a Query or Scan names, checked for the read it is asked for.
    package func readableIndex(_ name: String, consistentRead: Bool) throws(DynamoError) -> IndexDefinition {
        guard let index = index(named: name) else {
            throw DynamoError.validation("The table does not have the specified index: \(name)")
        }
        if index.isGlobal && consistentRead {
            throw DynamoError.validation("Consistent reads are not supported on global secondary indexes")
        }
        if index.status == "CREATING" {
            throw DynamoError.validation("Cannot read from backfilling global secondary index: \(name)")
        }
        return index
    }

    /// Validates an index read's `ExclusiveStartKey` (the table key plus the index key) and
    /// turns it into the row it names.
    func indexStartRow(_ key: Item, index: IndexDefinition) throws(DynamoError) -> ItemStore.Row {
        let invalid = DynamoError.validation(
            "The provided starting key is invalid: The provided key element does not match the schema")
        let names = Set(keyAttributes.map(\.name) + index.keyAttributes.map(\.name))
        guard Set(key.keys) == names else { throw invalid }
        let tableKey: StoredKey
        do { tableKey = try storedKey(fromKey: keyOnly(key)) } catch { throw invalid }
        var encoded: [[UInt8]] = []
        for attribute in index.keyAttributes {
            guard let value = key[attribute.name], attribute.type.matches(value),
                  let bytes = KeyEncoding.encode(value) else { throw invalid }
            encoded.append(bytes)
        }
        let indexKey = StoredKey(hash: KeyEncoding.partitionHash(encoded[0], type: index.partitionKey.type),
                                 partition: encoded[0], sort: encoded.count > 1 ? encoded[1] : [])
        return ItemStore.Row(key: indexKey, json: [], size: 0, tableKey: tableKey)
    }
}

extension TableDefinition {
    /// Checks a key condition against a key schema (the table's or an index's) and turns it into
    /// a stored partition key and a sort-key byte range.
    func resolve(_ condition: KeyConditionSpec, partitionKey: KeyAttribute,
                 sortKey: KeyAttribute?) throws(DynamoError) -> (StoredKey, SortKeyRange) {
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
        for operand in sortCondition.values {
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
