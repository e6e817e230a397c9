import CSQLite

/// A failed SQLite call: the result code and SQLite's own message.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    package var code: Int32
    package var message: String

    package var description: String { "SQLite error \(code): \(message)" }

    /// Whether another connection held a lock the call needed.
    package var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}
