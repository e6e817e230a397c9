#if canImport(SQLite3)
    import SQLite3
#elseif canImport(CSQLite)
    import CSQLite
#endif
import Synchronization

/// The device's SQLite file behind the offline store: one connection in WAL mode, serialized by
/// a mutex. A durable transaction (the outbox's) commits with `synchronous = FULL`: fsync'd
/// before the commit returns, so neither a killed process nor a power loss loses it. The
/// cache's transactions commit with `synchronous = NORMAL` (no fsync per read): a killed process
/// keeps them too, a power loss may take the last ones back, which only costs a read.
///
/// The system's SQLite on every platform: `SQLite3` on Apple platforms, the `CSQLite` system
/// module (libsqlite3) on Linux.
///
/// `@unchecked Sendable`: the connection handle is only used inside `connection.withLock`.
final class LocalDatabase: @unchecked Sendable {
    /// A SQLite failure, with SQLite's message.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A value bound to, or read from, a statement.
    enum Value: Hashable {
        case null
        case integer(Int64)
        case text(String)
    }

    private let connection: Mutex<OpaquePointer?>
    /// Whether the connection is in `synchronous = FULL` now (changed between transactions).
    private let durable = Mutex(false)

    /// Opens (creating) the file at `path` in WAL mode with full synchronous commits.
    init(path: String) throws(Failure) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite3_close(handle)
            throw Failure(description: "cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5_000)
        connection = Mutex(handle)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        connection.withLock { handle in
            sqlite3_close(handle)
            handle = nil
        }
    }

    /// Runs statements without results (schema, pragmas).
    func execute(_ sql: String) throws(Failure) {
        try connection.withLock { handle throws(Failure) in
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw Self.failure(handle, sql) }
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` … `COMMIT` transaction (rolled back when it throws);
    /// a `durable` one is fsync'd before it returns.
    func transaction<T>(durable wanted: Bool = false, _ body: (Transaction) throws -> T) throws -> T {
        try connection.withLock { handle in
            let transaction = Transaction(handle: handle)
            try durable.withLock { durable in
                guard durable != wanted else { return }
                try transaction.run(wanted ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
                durable = wanted
            }
            try transaction.run("BEGIN IMMEDIATE")
            do {
                let result = try body(transaction)
                try transaction.run("COMMIT")
                return result
            } catch {
                _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }
    }

    /// Runs one query outside an explicit transaction and returns its rows.
    func rows(_ sql: String, _ arguments: [Value] = []) throws -> [[Value]] {
        try transaction { try $0.rows(sql, arguments) }
    }

    /// The statements of one transaction.
    struct Transaction {
        let handle: OpaquePointer?

        /// Runs a statement and returns its rows (empty for writes).
        @discardableResult
        func rows(_ sql: String, _ arguments: [Value] = []) throws(Failure) -> [[Value]] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw LocalDatabase.failure(handle, sql) }
            defer { sqlite3_finalize(statement) }
            for (offset, argument) in arguments.enumerated() {
                let position = Int32(offset + 1)
                let status: Int32
                switch argument {
                case .null: status = sqlite3_bind_null(statement, position)
                case .integer(let number): status = sqlite3_bind_int64(statement, position, number)
                case .text(let text): status = sqlite3_bind_text(statement, position, text, -1, LocalDatabase.transient)
                }
                guard status == SQLITE_OK else { throw LocalDatabase.failure(handle, sql) }
            }
            var result: [[Value]] = []
            while true {
                let status = sqlite3_step(statement)
                if status == SQLITE_DONE { return result }
                guard status == SQLITE_ROW else { throw LocalDatabase.failure(handle, sql) }
                var row: [Value] = []
                for column in 0..<sqlite3_column_count(statement) {
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_NULL: row.append(.null)
                    case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                    default: row.append(.text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""))
                    }
                }
                result.append(row)
            }
        }

        /// Runs a statement without arguments.
        func run(_ sql: String) throws(Failure) {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw LocalDatabase.failure(handle, sql) }
        }
    }

    private static func failure(_ handle: OpaquePointer?, _ sql: String) -> Failure {
        Failure(description: "\(handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection") (\(sql.prefix(60)))")
    }

    /// SQLite copies bound text (`SQLITE_TRANSIENT`, a macro Swift cannot import).
    static var transient: sqlite3_destructor_type {
        #if canImport(SQLite3)
            unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        #else
            localdynamo_sqlite_transient()
        #endif
    }
}

extension LocalDatabase.Value {
    /// The text, or `nil` for another kind of value.
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The integer, or `nil` for another kind of value.
    var integer: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }
}
