import DynamoAPI

/// Range reads over a table's rows, in storage order or its reverse.
extension ItemStore {
    /// One stored row as a range read returns it.
    struct Row {
        /// The row's key in its store: the table key, or for an index entry the index key.
        var key: StoredKey
        var json: [UInt8]
        var size: Int
        /// For an index entry, the key of the table item it stands for.
        var tableKey: StoredKey?
    }

    /// Rows of the hash range `[lowHash, highHash]` after `start` (exclusive), in
    /// (hash, pk, sk) order: the order a Scan walks.
    func scan(lowHash: Int64, highHash: Int64, after start: StoredKey?, limit: Int) throws -> [Row] {
        let statement: SQLiteStatement
        if let start {
            statement = try connection.statement(
                """
                SELECT hash, pk, sk, item, size FROM \(name)
                WHERE (hash, pk, sk) > (?, ?, ?) AND hash <= ?
                ORDER BY hash, pk, sk LIMIT ?
                """)
            statement.bind(
                .integer(start.hash), .blob(start.partition), .blob(start.sort),
                .integer(highHash), .integer(Int64(limit)))
        } else {
            statement = try connection.statement(
                """
                SELECT hash, pk, sk, item, size FROM \(name)
                WHERE hash >= ? AND hash <= ? ORDER BY hash, pk, sk LIMIT ?
                """)
            statement.bind(.integer(lowHash), .integer(highHash), .integer(Int64(limit)))
        }
        return try rows(statement)
    }

    /// Rows of one partition whose sort key lies in `range`, after `start` (exclusive) in the
    /// direction of travel: the rows a Query reads.
    ///
    /// When it returns `limit` rows the statement is left on its last row, still active: its
    /// snapshot lasts for the next batch of the page (see `SQLiteConnection.readInOneSnapshot`).
    func query(
        partition: StoredKey, range: SortKeyRange, after start: [UInt8]?, forward: Bool,
        limit: Int
    ) throws -> [Row] {
        var values: [SQLiteValue] = [.integer(partition.hash), .blob(partition.partition)]
        if let lower = range.lower { values.append(.blob(lower.bytes)) }
        if let upper = range.upper { values.append(.blob(upper.bytes)) }
        if let start { values.append(.blob(start)) }
        values.append(.integer(Int64(limit)))
        let lower = range.lower?.inclusive, upper = range.upper?.inclusive, afterStart = start != nil
        let statement = try connection.statement(querySQLKey(lower: lower, upper: upper, afterStart: afterStart, forward: forward)) {
            querySQL(lower: lower, upper: upper, afterStart: afterStart, forward: forward)
        }
        for (offset, value) in values.enumerated() { statement.bind(value, at: Int32(offset + 1)) }
        return try rows(statement, upTo: limit)
    }

    /// The SQL of a Query page. Parameters, in order: hash, pk, then the lower bound, the upper
    /// bound and the start key where present, then the limit.
    ///
    /// - Parameters:
    ///   - lower: whether there is a lower bound, and if so whether it is inclusive.
    ///   - upper: likewise for the upper bound.
    func querySQL(lower: Bool?, upper: Bool?, afterStart: Bool, forward: Bool) -> String {
        var clauses = ["hash = ?", "pk = ?"]
        if let lower { clauses.append(lower ? "sk >= ?" : "sk > ?") }
        if let upper { clauses.append(upper ? "sk <= ?" : "sk < ?") }
        if afterStart { clauses.append(forward ? "sk > ?" : "sk < ?") }
        return """
            SELECT hash, pk, sk, item, size FROM \(name) WHERE \(clauses.joined(separator: " AND "))
            ORDER BY sk \(forward ? "ASC" : "DESC") LIMIT ?
            """
    }

    /// The cache key of ``querySQL(lower:upper:afterStart:forward:)``'s statement: one kind per
    /// combination of its arguments (36, from 16 on, clear of `ItemStore`'s own kinds).
    func querySQLKey(lower: Bool?, upper: Bool?, afterStart: Bool, forward: Bool) -> StatementKey {
        StatementKey(
            kind: Self.querySQLKind(lower: lower, upper: upper, afterStart: afterStart, forward: forward),
            table: table.storageID)
    }

    static func querySQLKind(lower: Bool?, upper: Bool?, afterStart: Bool, forward: Bool) -> UInt8 {
        func code(_ bound: Bool?) -> UInt8 { bound.map { $0 ? 2 : 1 } ?? 0 }
        return 16 + code(lower) * 12 + code(upper) * 4 + (afterStart ? 2 : 0) + (forward ? 1 : 0)
    }

    /// The statement's rows, at most `maximum`: stepping stops at that row, so a statement that
    /// has more is left active.
    private func rows(_ statement: SQLiteStatement, upTo maximum: Int = .max) throws -> [Row] {
        var rows: [Row] = []
        while rows.count < maximum, try statement.step() {
            rows.append(
                Row(
                    key: StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2)),
                    json: statement.blob(3), size: Int(statement.int64(4))))
        }
        return rows
    }
}

/// Bounds on a sort key, in its stored byte encoding.
struct SortKeyRange {
    struct Bound {
        var bytes: [UInt8]
        var inclusive: Bool
    }

    var lower: Bound?
    var upper: Bound?

    /// Every sort key.
    static let all = SortKeyRange(lower: nil, upper: nil)

    /// Whether a stored sort key lies within the bounds (stored keys compare as bytes).
    func contains(_ sort: [UInt8]) -> Bool {
        if let lower {
            let below = sort.lexicographicallyPrecedes(lower.bytes)
            if below || (!lower.inclusive && sort == lower.bytes) { return false }
        }
        if let upper {
            let above = upper.bytes.lexicographicallyPrecedes(sort)
            if above || (!upper.inclusive && sort == upper.bytes) { return false }
        }
        return true
    }
}
