import DynamoAPI

/// The point-in-time-recovery change log: while recovery is enabled on a table, every item
/// change is appended to `pitr_log` (time, key, old and new image) in the same transaction as
/// the change. A table's state at any second `T` of the window is its current state with the
/// changes made after `T` undone, newest first; entries older than the window are trimmed on
/// the next write.
extension Database {
    /// The change-capture consumer (see `consumeItemChanges`).
    func recordPointInTimeChanges(_ state: inout WriterState) throws {
        var now: Double?
        var trimmed: Set<Int64> = []
        for change in state.itemChanges {
            guard let settings = change.table.pointInTimeRecovery else { continue }
            let time = now ?? clock.now()
            now = time
            let storageID = change.table.storageID
            try state.connection.statement(PITRLogStatements.insert) {
                """
                INSERT INTO pitr_log (storage_id, time_micros, hash, pk, sk, old_item, new_item)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            }
            .bind(
                .integer(storageID), .integer(Micros.from(time)), .integer(change.key.hash),
                .blob(change.key.partition), .blob(change.key.sort),
                change.oldJSON.map { .blob($0) } ?? .null, change.newJSON.map { .blob($0) } ?? .null
            )
            .run()
            if trimmed.insert(storageID).inserted {
                try trimPointInTimeLog(
                    storageID: storageID, before: settings.earliestRestorable(now: time),
                    connection: state.connection)
            }
        }
    }

    /// Drops the entries no restore inside the window needs (those at or before its start).
    func trimPointInTimeLog(storageID: Int64, before earliest: Double, connection: SQLiteConnection) throws {
        try connection.statement(PITRLogStatements.trim) {
            "DELETE FROM pitr_log WHERE storage_id = ? AND time_micros <= ?"
        }
        .bind(.integer(storageID), .integer(Micros.from(earliest))).run()
    }

    /// Drops a table's whole log (recovery disabled, or the table deleted).
    func forgetPointInTimeLog(storageID: Int64, connection: SQLiteConnection) throws {
        try connection.statement("DELETE FROM pitr_log WHERE storage_id = ?").bind(.integer(storageID)).run()
    }

    /// The images the changes after `time` replaced, one per key: the item as it stood at
    /// `time` (`nil` where it did not exist). Read inside the caller's transaction.
    func imagesBefore(
        storageID: Int64, after time: Double,
        connection: SQLiteConnection
    ) throws -> [StoredKey: [UInt8]?] {
        let statement = try connection.statement(
            "SELECT hash, pk, sk, old_item FROM pitr_log WHERE storage_id = ? AND time_micros > ? ORDER BY seq"
        )
        .bind(.integer(storageID), .integer(Micros.from(time)))
        var images: [StoredKey: [UInt8]?] = [:]
        while try statement.step() {
            let key = StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2))
            if images[key] == nil {
                images[key] = .some(statement.isNull(3) ? nil : statement.blob(3))
            }
        }
        return images
    }
}

/// Cache keys of the log's hot statements (kinds 200 and up are this file's).
enum PITRLogStatements {
    static let insert = StatementKey(kind: 200, table: -1)
    static let trim = StatementKey(kind: 201, table: -1)
}
