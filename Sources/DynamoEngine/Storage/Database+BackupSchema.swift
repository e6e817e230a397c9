extension Database {
    /// Schema version 2: the tables of backups, the point-in-time-recovery change log and the
    /// export and import jobs (each statement is idempotent, so the step can run beside other
    /// version-2 steps in any order).
    ///
    /// ```
    /// backups(arn, number, table_name, created_micros, record)   record: BackupRecord JSON
    /// backup_items_<number>(hash, pk, sk, size, item)            a backup's rows (ItemStore's layout)
    /// pitr_log(seq, storage_id, time_micros, hash, pk, sk, old_item, new_item)
    /// data_jobs(arn, kind, started_micros, record)               kind: EXPORT or IMPORT
    /// ```
    static func migrateToBackupSchema(_ connection: SQLiteConnection) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS backups (
                arn TEXT PRIMARY KEY,
                number INTEGER NOT NULL UNIQUE,
                table_name TEXT NOT NULL,
                created_micros INTEGER NOT NULL,
                record BLOB NOT NULL
            );
            CREATE TABLE IF NOT EXISTS pitr_log (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                storage_id INTEGER NOT NULL,
                time_micros INTEGER NOT NULL,
                hash INTEGER NOT NULL,
                pk BLOB NOT NULL,
                sk BLOB NOT NULL,
                old_item BLOB,
                new_item BLOB
            );
            CREATE INDEX IF NOT EXISTS pitr_log_by_time ON pitr_log (storage_id, time_micros);
            CREATE TABLE IF NOT EXISTS data_jobs (
                arn TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                started_micros INTEGER NOT NULL,
                record BLOB NOT NULL
            );
            PRAGMA user_version = 2;
            """)
    }
}
