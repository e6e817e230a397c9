/// The error codes of backups, point-in-time recovery, exports and imports.
extension DynamoErrorCode {
    /// No backup with the ARN a request named.
    public static let backupNotFound = Self(rawValue: "BackupNotFoundException")
    /// A backup is still being created or deleted.
    public static let backupInUse = Self(rawValue: "BackupInUseException")
    /// A restore named a target table that already exists.
    public static let tableAlreadyExists = Self(rawValue: "TableAlreadyExistsException")
    /// A backup or restore named a source table that does not exist (also the 2017.11.29
    /// global table calls' "no such table in that region").
    public static let tableNotFound = Self(rawValue: "TableNotFoundException")
    /// A table is being created, updated or deleted.
    public static let tableInUse = Self(rawValue: "TableInUseException")
    /// Point-in-time recovery is not enabled on the table a restore or export names.
    public static let pointInTimeRecoveryUnavailable = Self(rawValue: "PointInTimeRecoveryUnavailableException")
    /// A restore time outside the table's restorable window.
    public static let invalidRestoreTime = Self(rawValue: "InvalidRestoreTimeException")
    /// Continuous backups are not available for the table.
    public static let continuousBackupsUnavailable = Self(rawValue: "ContinuousBackupsUnavailableException")
    /// An export time outside the table's restorable window.
    public static let invalidExportTime = Self(rawValue: "InvalidExportTimeException")
    /// No export with the ARN a request named.
    public static let exportNotFound = Self(rawValue: "ExportNotFoundException")
    /// The same export was requested again with a different client token (or the reverse).
    public static let exportConflict = Self(rawValue: "ExportConflictException")
    /// No import with the ARN a request named.
    public static let importNotFound = Self(rawValue: "ImportNotFoundException")
    /// The same import was requested again with different parameters.
    public static let importConflict = Self(rawValue: "ImportConflictException")
}
