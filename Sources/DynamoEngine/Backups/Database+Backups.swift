import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    /// CreateBackup: a consistent copy of the table's rows and definition, taken inside one
    /// write transaction (SQLite copies the rows table to table, so even a large table holds
    /// the writer only for as long as that copy takes). Index entries are not copied: a
    /// restore rebuilds them from the items.
    package func createBackup(_ input: CreateBackupInput, now: Double) throws -> CreateBackupOutput {
        let name = TableReference.name(from: input.tableName)
        let record = try write { state -> BackupRecord in
            guard let table = cachedDefinition(name) else {
                throw EngineMessages.tableNotFound(name: name)
            }
            if table.globalIndexes.contains(where: { $0.status == .creating }) {
                throw EngineMessages.tableBeingUpdated(name: name)
            }
            let connection = state.connection
            let next = try connection.statement("SELECT coalesce(max(number), 0) + 1 FROM backups")
            _ = try next.step()
            let tableARN = ResourceNames.tableARN(region: region, table: name)
            var record = BackupRecord(
                arn: BackupRecord.arn(tableARN: tableARN, now: now), name: input.backupName,
                number: next.int64(0), creationDateTime: now, type: BackupType.user.rawValue,
                table: table, tableARN: tableARN, itemCount: 0, sizeBytes: 0)
            try connection.execute(
                """
                CREATE TABLE \(record.storageName) (
                    hash INTEGER NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL, size INTEGER NOT NULL,
                    item BLOB NOT NULL, PRIMARY KEY (hash, pk, sk)
                ) WITHOUT ROWID
                """)
            try connection.execute(
                "INSERT INTO \(record.storageName) SELECT hash, pk, sk, size, item FROM items_\(table.storageID)")
            let counted = try ItemStore(table: table, connection: connection).statistics()
            record.itemCount = counted.itemCount
            record.sizeBytes = counted.sizeBytes
            try connection.statement("INSERT INTO backups (arn, number, table_name, created_micros, record) VALUES (?, ?, ?, ?, ?)")
                .bind(
                    .text(record.arn), .integer(record.number), .text(name), .integer(Micros.from(now)),
                    .blob(Array(try JSONEncoder().encode(record)))
                )
                .run()
            return record
        }
        return CreateBackupOutput(backupDetails: record.details())
    }

    /// DescribeBackup.
    package func describeBackup(_ input: DescribeBackupInput) throws -> DescribeBackupOutput {
        DescribeBackupOutput(backupDescription: try backup(arn: input.backupArn).description(region: region))
    }

    /// DeleteBackup: drops the backup's rows; the answer describes it as `DELETED`.
    package func deleteBackup(_ input: DeleteBackupInput) throws -> DeleteBackupOutput {
        let record = try write { state -> BackupRecord in
            let record = try backup(arn: input.backupArn, connection: state.connection)
            try state.connection.statement("DELETE FROM backups WHERE arn = ?").bind(.text(record.arn)).run()
            state.connection.clearStatementCache()
            try state.connection.dropTable(named: record.storageName)
            return record
        }
        return DeleteBackupOutput(backupDescription: record.description(region: region, status: .deleted))
    }

    /// ListBackups: oldest first, filtered by table, creation time (lower bound inclusive, upper
    /// bound exclusive) and type, in pages of `Limit` (all at once without one).
    package func listBackups(_ input: ListBackupsInput) throws -> ListBackupsOutput {
        if let lower = input.timeRangeLowerBound, let upper = input.timeRangeUpperBound, lower > upper {
            throw EngineMessages.timeRangeBoundsReversed
        }
        let filterType = input.backupType ?? .user
        let tableName = input.tableName.map(TableReference.name(from:))
        var records = try read { connection in try allBackups(connection: connection) }
        records = records.filter { record in
            (tableName == nil || record.table.name == tableName)
                && (filterType == .all || record.type == filterType.rawValue)
                && input.timeRangeLowerBound.map { record.creationDateTime >= $0.secondsSince1970 } ?? true
                && input.timeRangeUpperBound.map { record.creationDateTime < $0.secondsSince1970 } ?? true
        }
        if let start = input.exclusiveStartBackupArn {
            guard let position = records.firstIndex(where: { $0.arn == start }) else {
                throw EngineMessages.backupNotFound(start: start)
            }
            records = Array(records[(position + 1)...])
        }
        let page = input.limit.map { Array(records.prefix($0)) } ?? records
        let more = page.count < records.count
        return ListBackupsOutput(backupSummaries: page.map(\.summary), lastEvaluatedBackupArn: more ? page.last?.arn : nil)
    }

    /// The backup an ARN names, or `BackupNotFoundException`.
    func backup(arn: String, connection: SQLiteConnection? = nil) throws -> BackupRecord {
        // DynamoDB tells a string that is no backup's ARN (a table's ARN, say) from an unknown backup.
        guard arn.hasPrefix("arn:"), arn.contains(":table/"), arn.contains("/backup/") else {
            throw EngineMessages.invalidBackupArn
        }
        let lookup = { (connection: SQLiteConnection) throws -> BackupRecord? in
            let statement = try connection.statement("SELECT record FROM backups WHERE arn = ?").bind(.text(arn))
            guard try statement.step() else { return nil }
            return try JSONDecoder().decode(BackupRecord.self, from: Data(statement.blob(0)))
        }
        let found = try connection.map(lookup) ?? read(lookup)
        guard let found else { throw EngineMessages.backupNotFound(start: arn) }
        return found
    }

    private func allBackups(connection: SQLiteConnection) throws -> [BackupRecord] {
        let statement = try connection.statement("SELECT record FROM backups ORDER BY created_micros, number")
        var records: [BackupRecord] = []
        let decoder = JSONDecoder()
        while try statement.step() {
            records.append(try decoder.decode(BackupRecord.self, from: Data(statement.blob(0))))
        }
        return records
    }
}
