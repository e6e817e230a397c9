import DynamoAPI
import DynamoEngine

/// On-demand backups and point-in-time recovery: decode, run on the engine, encode the output shape.
enum BackupOperations {
    /// The rows of ``EngineDispatcher/operations`` for backups and point-in-time recovery.
    static let rows: [String: EngineDispatcher.Operation] = [
        "CreateBackup": EngineDispatcher.shaped { (input: CreateBackupInput, context) in
            try context.database.createBackup(input, now: context.now)
        },
        "DescribeBackup": EngineDispatcher.shaped { (input: DescribeBackupInput, context) in
            try context.database.describeBackup(input)
        },
        "DeleteBackup": EngineDispatcher.shaped { (input: DeleteBackupInput, context) in
            try context.database.deleteBackup(input)
        },
        "ListBackups": EngineDispatcher.shaped { (input: ListBackupsInput, context) in
            try context.database.listBackups(input)
        },
        "RestoreTableFromBackup": EngineDispatcher.shaped { (input: RestoreTableFromBackupInput, context) in
            let snapshot = try context.database.restoreTableFromBackup(input, now: context.now)
            return RestoreTableFromBackupOutput(tableDescription: snapshot.tableDescription)
        },
        "UpdateContinuousBackups": EngineDispatcher.shaped { (input: UpdateContinuousBackupsInput, context) in
            try context.database.updateContinuousBackups(input, now: context.now)
        },
        "DescribeContinuousBackups": EngineDispatcher.shaped { (input: DescribeContinuousBackupsInput, context) in
            try context.database.describeContinuousBackups(input, now: context.now)
        },
        "RestoreTableToPointInTime": EngineDispatcher.shaped { (input: RestoreTableToPointInTimeInput, context) in
            let snapshot = try context.database.restoreTableToPointInTime(input, now: context.now)
            return RestoreTableToPointInTimeOutput(tableDescription: snapshot.tableDescription)
        },
    ]
}
