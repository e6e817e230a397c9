import DynamoAPI
import DynamoEngine

/// On-demand backups and point-in-time recovery: decode, run on the engine, encode the output shape.
extension OperationRows {
    static let createBackup = OperationRow { (input: CreateBackupInput, context) in
        try context.database.createBackup(input, now: context.now)
    }

    static let describeBackup = OperationRow { (input: DescribeBackupInput, context) in
        try context.database.describeBackup(input)
    }

    static let deleteBackup = OperationRow { (input: DeleteBackupInput, context) in
        try context.database.deleteBackup(input)
    }

    static let listBackups = OperationRow { (input: ListBackupsInput, context) in
        try context.database.listBackups(input)
    }

    static let restoreTableFromBackup = OperationRow { (input: RestoreTableFromBackupInput, context) in
        let snapshot = try context.database.restoreTableFromBackup(input, now: context.now)
        return RestoreTableFromBackupOutput(tableDescription: snapshot.tableDescription)
    }

    static let updateContinuousBackups = OperationRow { (input: UpdateContinuousBackupsInput, context) in
        try context.database.updateContinuousBackups(input, now: context.now)
    }

    static let describeContinuousBackups = OperationRow(.eventLoop) { (input: DescribeContinuousBackupsInput, context) in
        try context.database.describeContinuousBackups(input, now: context.now)
    }

    static let restoreTableToPointInTime = OperationRow { (input: RestoreTableToPointInTimeInput, context) in
        let snapshot = try context.database.restoreTableToPointInTime(input, now: context.now)
        return RestoreTableToPointInTimeOutput(tableDescription: snapshot.tableDescription)
    }
}
