/// Where a restored table came from, as DescribeTable's `RestoreSummary` reports it.
package struct RestoreOrigin: Codable, Sendable, Hashable {
    /// The backup restored (RestoreTableFromBackup), or `nil`.
    package var sourceBackupARN: String?
    /// The table restored from (both kinds of restore).
    package var sourceTableARN: String?
    /// The point in time the table's contents are from.
    package var restoreDateTime: Double
}
