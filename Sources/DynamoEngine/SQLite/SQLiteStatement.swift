import CSQLite

/// A prepared statement. Obtained from `SQLiteConnection.statement(_:)`, which resets it.
package final class SQLiteStatement {
    private let raw: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(raw: OpaquePointer, connection: SQLiteConnection) {
        self.raw = raw
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(raw)
    }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    /// Binds parameters by position (1-based), in order.
    @discardableResult
    package func bind(_ values: SQLiteValue...) -> SQLiteStatement {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
        return self
    }

    package func bind(_ value: SQLiteValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(raw, index)
        case .integer(let number): sqlite3_bind_int64(raw, index, number)
        case .real(let number): sqlite3_bind_double(raw, index, number)
        case .text(let text): sqlite3_bind_text(raw, index, text, -1, localdynamo_sqlite_transient())
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                // A zero-length blob must still bind as a blob, not NULL.
                _ = sqlite3_bind_blob(
                    raw, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    Int32(buffer.count), localdynamo_sqlite_transient())
            }
        }
    }

    /// Binds `bytes` as a blob without SQLite copying them (`SQLITE_STATIC`): they must stay
    /// valid and unchanged until the statement has run, for a bulk writer that binds bytes it
    /// holds anyway (another statement's current row, its own buffers) once per row.
    package func bindInPlace(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        // A zero-length blob must still bind as a blob, not NULL.
        _ = sqlite3_bind_blob(raw, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), nil)
    }

    /// Advances to the next row; `false` when the statement is done.
    package func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(raw)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(status)
        }
    }

    /// Runs a statement that returns no rows.
    package func run() throws(SQLiteError) {
        while try step() {}
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }

    package func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(raw, column) else { return "" }
        return String(cString: pointer)
    }

    package func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let pointer = sqlite3_column_blob(raw, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Calls `body` with the bytes of a blob column in place (valid only during the call, on the
    /// current row): for a reader that must not copy each row (a vector search reads every
    /// vector of an index).
    package func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let pointer = sqlite3_column_blob(raw, column) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// A value bound to a statement parameter.
package enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
