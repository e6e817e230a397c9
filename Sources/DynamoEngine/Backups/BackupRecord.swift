#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One on-demand backup as the `backups` table keeps it (JSON in its `record` column); its rows
/// are in `backup_items_<number>`.
package struct BackupRecord: Codable, Sendable {
    package var arn: String
    package var name: String
    /// Number of the SQLite table holding the backup's rows.
    package var number: Int64
    package var creationDateTime: Double
    /// `USER` for CreateBackup's backups.
    package var type: String
    /// The table's definition when the backup was taken (keys, indexes, settings).
    package var table: TableDefinition
    package var tableARN: String
    package var itemCount: Int64
    package var sizeBytes: Int64

    /// The SQLite table of the backup's rows.
    var storageName: String { "backup_items_\(number)" }

    /// A backup ARN as DynamoDB makes them: the table's ARN, `/backup/`, the creation time in
    /// milliseconds (14 digits), a dash and eight hex digits.
    static func arn(tableARN: String, now: Double) -> String {
        "\(tableARN)/backup/\(TimestampedID.make(now: now))"
    }
}
