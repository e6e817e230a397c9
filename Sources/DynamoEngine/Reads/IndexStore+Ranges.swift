import DynamoAPI

/// Range reads over an index's entries: a Query or Scan with `IndexName`.
extension IndexStore {
    /// Entries in the hash range, in (hash, pk, sk, table key) order, after `start` (exclusive).
    func scan(lowHash: Int64, highHash: Int64, after start: ItemStore.Row?, limit: Int) throws -> [ItemStore.Row] {
        let statement: SQLiteStatement
        if let start, let tableKey = start.tableKey {
            statement = try connection.statement(
                """
                SELECT hash, pk, sk, tpk, tsk, item, size FROM \(name)
                WHERE (hash, pk, sk, tpk, tsk) > (?, ?, ?, ?, ?) AND hash <= ?
                ORDER BY hash, pk, sk, tpk, tsk LIMIT ?
                """)
            statement.bind(
                .integer(start.key.hash), .blob(start.key.partition), .blob(start.key.sort),
                .blob(tableKey.partition), .blob(tableKey.sort), .integer(highHash), .integer(Int64(limit)))
        } else {
            statement = try connection.statement(
                """
                SELECT hash, pk, sk, tpk, tsk, item, size FROM \(name)
                WHERE hash >= ? AND hash <= ? ORDER BY hash, pk, sk, tpk, tsk LIMIT ?
                """)
            statement.bind(.integer(lowHash), .integer(highHash), .integer(Int64(limit)))
        }
        return try rows(statement)
    }

    /// Entries of one index partition whose sort key lies in `range`, after `start`.
    func query(
        partition: StoredKey, range: SortKeyRange, after start: ItemStore.Row?, forward: Bool,
        limit: Int
    ) throws -> [ItemStore.Row] {
        var clauses = ["hash = ?", "pk = ?"]
        var values: [SQLiteValue] = [.integer(partition.hash), .blob(partition.partition)]
        if let lower = range.lower {
            clauses.append(lower.inclusive ? "sk >= ?" : "sk > ?")
            values.append(.blob(lower.bytes))
        }
        if let upper = range.upper {
            clauses.append(upper.inclusive ? "sk <= ?" : "sk < ?")
            values.append(.blob(upper.bytes))
        }
        if let start, let tableKey = start.tableKey {
            clauses.append(forward ? "(sk, tpk, tsk) > (?, ?, ?)" : "(sk, tpk, tsk) < (?, ?, ?)")
            values += [.blob(start.key.sort), .blob(tableKey.partition), .blob(tableKey.sort)]
        }
        values.append(.integer(Int64(limit)))
        let direction = forward ? "ASC" : "DESC"
        let statement = try connection.statement(
            """
            SELECT hash, pk, sk, tpk, tsk, item, size FROM \(name) WHERE \(clauses.joined(separator: " AND "))
            ORDER BY sk \(direction), tpk \(direction), tsk \(direction) LIMIT ?
            """)
        for (offset, value) in values.enumerated() { statement.bind(value, at: Int32(offset + 1)) }
        return try rows(statement)
    }

    private func rows(_ statement: SQLiteStatement) throws -> [ItemStore.Row] {
        var rows: [ItemStore.Row] = []
        while try statement.step() {
            let tablePartition = statement.blob(3)
            let tableKey = StoredKey(
                hash: KeyEncoding.partitionHash(tablePartition, type: table.partitionKey.type),
                partition: tablePartition, sort: statement.blob(4))
            rows.append(
                ItemStore.Row(
                    key: StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2)),
                    json: statement.blob(5), size: Int(statement.int64(6)), tableKey: tableKey))
        }
        return rows
    }
}
