import DynamoAPI

// EngineMessages, continued: backups, restores, point-in-time recovery, exports and imports.

// MARK: - Backups/Database+Backups.swift

extension EngineMessages {
    /// Thrown by Backups (createBackup), ExportRun (exportLines), Exports (exportTableToPointInTime), ContinuousBackups (continuousBackupsTableNotFound), PointInTimeRestore (restoreTableToPointInTime).
    static func tableNotFound(name: String) -> DynamoError {
        DynamoError(.tableNotFound, "Table not found: \(name)")
    }

    /// ExportTableToPointInTime with a `TableArn` that is no ARN (a bare table name).
    static let exportTableArnNotAnARN = DynamoError.validation(
        "One or more parameter values were invalid: tableArn is not a valid ARN")

    /// Thrown by Backups (createBackup).
    static func tableBeingUpdated(name: String) -> DynamoError {
        DynamoError(.tableInUse, "Table is being updated: \(name)")
    }

    /// Thrown by Backups (backup(arn:)): a BackupArn that is not a backup's ARN at all.
    static let invalidBackupArn = DynamoError.validation("Invalid Backup ARN")

    /// Thrown by Backups (listBackups).
    static let timeRangeBoundsReversed = DynamoError.validation(
        "One or more parameter values were invalid: Time range lower bound must be less than or equal to upper bound")

    /// Thrown by Backups (listBackups), Backups (backup).
    static func backupNotFound(start: String) -> DynamoError {
        DynamoError(.backupNotFound, "Backup not found: \(start)")
    }
}

// MARK: - Backups/Database+Restore.swift

extension EngineMessages {
    /// Thrown by Restore (checkIndexNames).
    static func indexRestoreDoesNotExist(unknown: String) -> DynamoError {
        .validation("One or more parameter values were invalid: The index \(unknown) to restore does not exist in the source table")
    }

    /// Thrown by Restore (createRestoredTable), PointInTimeRestore (restoreTableToPointInTime), Imports (importTable), CreateTable (insertTable).
    /// (`.tableAlreadyExists` there, `.resourceInUse` from ImportTable and CreateTable.)
    static func tableAlreadyExists(_ name: String, code: DynamoErrorCode) -> DynamoError {
        DynamoError(code, "Table already exists: \(name)")
    }
}

// MARK: - Exports/DataJobs.swift

extension EngineMessages {
    /// Thrown by DataJobs.page.
    static let invalidNextToken = DynamoError.validation("Invalid NextToken")
}

// MARK: - Exports/Database+Exports.swift

extension EngineMessages {
    /// Thrown by Exports (exportTableToPointInTime), PointInTimeRestore (restoreTime).
    static func pointInTimeRecoveryNotEnabled(name: String) -> DynamoError {
        DynamoError(.pointInTimeRecoveryUnavailable, "Point in time recovery is not enabled for table '\(name)'")
    }

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportTimeOnIncrementalExport = DynamoError.validation("ExportTime cannot be specified for an incremental export")

    /// Thrown by Exports (exportTableToPointInTime).
    static let incrementalExportTimesRequired = DynamoError.validation(
        "IncrementalExportSpecification with ExportFromTime and ExportToTime is required for an incremental export")

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportPeriodOutsideRecoveryWindow = DynamoError(.invalidExportTime, "Export period must be within the point in time recovery window")

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportPeriodLength = DynamoError.validation("Export period must be between 15 minutes and 24 hours long")

    /// Thrown by Exports (exportTableToPointInTime).
    static let incrementalSpecificationOnFullExport = DynamoError.validation(
        "IncrementalExportSpecification can only be specified for an incremental export")

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportTimeOutsideRecoveryWindow = DynamoError(.invalidExportTime, "Export time must be within the point in time recovery window")

    /// Thrown by Exports (describeExport): an ExportArn that is not an export's ARN at all.
    static let invalidExportArn = DynamoError.validation("Invalid Export ARN")

    /// Thrown by Exports (describeExport).
    static func exportNotFound(exportArn: String) -> DynamoError {
        DynamoError(.exportNotFound, "Export not found: \(exportArn)")
    }
}

// MARK: - Exports/Database+Imports.swift

extension EngineMessages {
    /// Thrown by Imports (importTable).
    static let importConflict = DynamoError(.importConflict, "There was a conflict when importing from the specified S3 source.")

    /// Thrown by Imports (importTable).
    static let csvDelimiterSingleCharacter = DynamoError.validation("The CSV delimiter must be a single character")

    /// Thrown by Imports (describeImport): an ImportArn that is not an import's ARN at all.
    static let invalidImportArn = DynamoError.validation("Invalid Import ARN")

    /// Thrown by Imports (describeImport).
    static func importNotFound(importArn: String) -> DynamoError {
        DynamoError(.importNotFound, "Import not found: \(importArn)")
    }
}

// MARK: - PITR/Database+ContinuousBackups.swift

extension EngineMessages {
    /// Thrown by ContinuousBackups (updateContinuousBackups).
    static let recoveryPeriodWhenDisabling = DynamoError.validation(
        "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time recovery.")
}

// MARK: - PITR/Database+PointInTimeRestore.swift

extension EngineMessages {
    /// Thrown by PointInTimeRestore (restoreTableToPointInTime).
    static let eitherSourceTableArnSourceTableNameSpecified = DynamoError.validation(
        "The parameter 'TableName' is required but was not present in the request")

    /// Thrown by PointInTimeRestore (restoreTableToPointInTime).
    static let onlyOneSourceTableArnSourceTableNameSpecified = DynamoError.validation("Must provide exactly one of: sourceTableArn, sourceTableName")

    /// Thrown by PointInTimeRestore (restoreTableToPointInTime).
    static let onlyOneRestoreDateTimeUseLatestRestorableTimeSpecified = DynamoError.validation(
        "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore request. Please specify either RestoreDateTime time or UseLatestRestorableTime"
    )

    /// Thrown by PointInTimeRestore (restoreTableToPointInTime): neither a time nor UseLatestRestorableTime.
    static let restoreTimeMissing = DynamoError.validation(
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both")

    /// Thrown by PointInTimeRestore (restoreTime).
    static func restoreDateTimeBetweenEarliestRestorableDateTimeLatestRestorableDateTime(earliest: Double, latest: Double) -> DynamoError {
        DynamoError(
            .invalidRestoreTime,
            "RestoreDateTime must be between EarliestRestorableDateTime (\(Timestamp(secondsSince1970: earliest))) and LatestRestorableDateTime (\(Timestamp(secondsSince1970: latest)))"
        )
    }
}
