import DynamoAPI

// Waiters for the statuses of backups, exports, imports, bulk operations, vector indexes,
// replicas, streams and TTL. Each polls
// the resource's Describe operation every `delay` (default 20 s, as botocore's waiters) at most
// `maximumAttempts` times (default 25) and throws `DynamoClientError.waiterTimedOut` after the
// last poll, `DynamoClientError.waiterFailed` when the resource reaches a state it never leaves
// for the wanted one, and any error the Describe operation throws.
extension DynamoClient {
    /// Polls `DescribeBackup` until the backup is `AVAILABLE` (fails on `DELETED`).
    ///
    /// ```swift
    /// let arn = try await client.createBackup(CreateBackupInput(tableName: "Notes", backupName: "nightly"))
    ///     .backupDetails!.backupArn
    /// let details = try await client.waitUntilBackupAvailable(arn, delay: .seconds(1))
    /// ```
    @discardableResult
    public func waitUntilBackupAvailable(
        _ backupArn: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> BackupDetails {
        try await poll("backup \(backupArn) not AVAILABLE", delay: delay, maximumAttempts: maximumAttempts) {
            guard let details = try await describeBackup(DescribeBackupInput(backupArn: backupArn)).backupDescription?.backupDetails
            else { return .pending }
            switch details.backupStatus {
            case .available: return .done(details)
            case .deleted: return .failed("backup \(backupArn) was DELETED")
            default: return .pending
            }
        }
    }

    /// Polls `DescribeExport` until the export is `COMPLETED` (fails on `FAILED`, with its
    /// failure code and message).
    @discardableResult
    public func waitUntilExportCompleted(
        _ exportArn: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> ExportDescription {
        try await poll("export \(exportArn) not COMPLETED", delay: delay, maximumAttempts: maximumAttempts) {
            guard let export = try await describeExport(DescribeExportInput(exportArn: exportArn)).exportDescription else { return .pending }
            switch export.exportStatus {
            case .completed?: return .done(export)
            case .failed?: return .failed("export \(exportArn) FAILED: \(export.failureCode ?? "-") \(export.failureMessage ?? "")")
            default: return .pending
            }
        }
    }

    /// Polls `DescribeImport` until the import is `COMPLETED` (fails on `FAILED` and `CANCELLED`).
    @discardableResult
    public func waitUntilImportCompleted(
        _ importArn: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> ImportTableDescription {
        try await poll("import \(importArn) not COMPLETED", delay: delay, maximumAttempts: maximumAttempts) {
            let description = try await describeImport(DescribeImportInput(importArn: importArn)).importTableDescription
            switch description.importStatus {
            case .completed?: return .done(description)
            case .failed?, .cancelled?:
                return .failed(
                    "import \(importArn) \(description.importStatus!.rawValue): \(description.failureCode ?? "-") \(description.failureMessage ?? "")"
                )
            default: return .pending
            }
        }
    }

    /// Polls `DescribeTable` until the table's replica in `region` is `ACTIVE` (fails on
    /// `CREATION_FAILED`; a replica not listed yet is "not yet").
    @discardableResult
    public func waitUntilReplicaActive(
        _ tableName: String, region: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> ReplicaDescription {
        try await poll("replica of \(tableName) in \(region) not ACTIVE", delay: delay, maximumAttempts: maximumAttempts) {
            let table = try await describeTable(DescribeTableInput(tableName: tableName)).table
            guard let replica = table?.replicas?.first(where: { $0.regionName == region }) else { return .pending }
            switch replica.replicaStatus {
            case .active?: return .done(replica)
            case .creationFailed?: return .failed("replica of \(tableName) in \(region) CREATION_FAILED")
            default: return .pending
            }
        }
    }

    /// Polls `DescribeTable` and DynamoDB Streams' `DescribeStream` until the table's latest
    /// stream is `ENABLED`.
    ///
    /// - Returns: The stream's ARN.
    @discardableResult
    public func waitUntilStreamEnabled(
        _ tableName: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> String {
        try await poll("stream of \(tableName) not ENABLED", delay: delay, maximumAttempts: maximumAttempts) {
            let table = try await describeTable(DescribeTableInput(tableName: tableName)).table
            guard table?.streamSpecification?.streamEnabled == true, let arn = table?.latestStreamArn else { return .pending }
            let stream = try await describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription
            return stream?.streamStatus == .enabled ? .done(arn) : .pending
        }
    }

    /// Polls `DescribeTimeToLive` until the table's TTL status is `status` (`ENABLED` after
    /// enabling, `DISABLED` after disabling).
    @discardableResult
    public func waitUntilTimeToLive(
        _ tableName: String, is status: TimeToLiveStatus = .enabled, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> TimeToLiveDescription {
        try await poll("TTL of \(tableName) not \(status.rawValue)", delay: delay, maximumAttempts: maximumAttempts) {
            let description = try await describeTimeToLive(DescribeTimeToLiveInput(tableName: tableName)).timeToLiveDescription
            guard let description, description.timeToLiveStatus == status else { return .pending }
            return .done(description)
        }
    }

    /// Polls `DescribeBulkOperation` until the bulk operation is `COMPLETED` or
    /// `COMPLETED_WITH_ERRORS` (fails on `CANCELLED` and `FAILED`), as botocore's
    /// `BulkOperationCompleted` waiter.
    @discardableResult
    public func waitUntilBulkOperationCompleted(
        _ bulkOperationArn: String, delay: Duration = .seconds(20), maximumAttempts: Int = 180
    ) async throws -> BulkOperationDescription {
        try await poll("bulk operation \(bulkOperationArn) not COMPLETED", delay: delay, maximumAttempts: maximumAttempts) {
            let description = try await describeBulkOperation(DescribeBulkOperationInput(bulkOperationArn: bulkOperationArn))
                .bulkOperationDescription
            switch description.bulkOperationStatus {
            case .completed?, .completedWithErrors?: return .done(description)
            case .cancelled?, .failed?:
                return .failed("bulk operation \(bulkOperationArn) \(description.bulkOperationStatus!.rawValue)")
            default: return .pending
            }
        }
    }

    /// Polls `DescribeTable` until the table's vector index `indexName` is `ACTIVE` (its backfill
    /// done); an index not listed yet is "not yet".
    @discardableResult
    public func waitUntilVectorIndexActive(
        _ tableName: String, index indexName: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> VectorIndexDescription {
        try await poll("vector index \(indexName) of \(tableName) not ACTIVE", delay: delay, maximumAttempts: maximumAttempts) {
            let table = try await describeTable(DescribeTableInput(tableName: tableName)).table
            guard let index = table?.vectorIndexes?.first(where: { $0.indexName == indexName }) else { return .pending }
            return index.indexStatus == .active && index.backfilling != true ? .done(index) : .pending
        }
    }
}
