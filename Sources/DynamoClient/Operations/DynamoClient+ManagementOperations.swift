import DynamoAPI

// One method per operation: backups, point-in-time recovery, global tables (2017.11.29), imports, exports and bulk operations.
// Each is `send(_:)` with the operation's input; see `send(_:)` for what they throw.
extension DynamoClient {
    /// `CreateBackup`: Creates an on-demand backup of a table.
    ///
    /// - Parameter input: The request (`CreateBackupInput`).
    /// - Returns: The response (`CreateBackupOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func createBackup(_ input: CreateBackupInput) async throws -> CreateBackupOutput {
        try await send(input)
    }

    /// `DeleteBackup`: Deletes an on-demand backup.
    ///
    /// - Parameter input: The request (`DeleteBackupInput`).
    /// - Returns: The response (`DeleteBackupOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func deleteBackup(_ input: DeleteBackupInput) async throws -> DeleteBackupOutput {
        try await send(input)
    }

    /// `DescribeBackup`: Describes an on-demand backup.
    ///
    /// - Parameter input: The request (`DescribeBackupInput`).
    /// - Returns: The response (`DescribeBackupOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeBackup(_ input: DescribeBackupInput) async throws -> DescribeBackupOutput {
        try await send(input)
    }

    /// `DescribeContinuousBackups`: Describes point-in-time recovery of a table.
    ///
    /// - Parameter input: The request (`DescribeContinuousBackupsInput`).
    /// - Returns: The response (`DescribeContinuousBackupsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeContinuousBackups(_ input: DescribeContinuousBackupsInput) async throws -> DescribeContinuousBackupsOutput {
        try await send(input)
    }

    /// `ListBackups`: Lists on-demand backups.
    ///
    /// - Parameter input: The request (`ListBackupsInput`).
    /// - Returns: The response (`ListBackupsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listBackups(_ input: ListBackupsInput) async throws -> ListBackupsOutput {
        try await send(input)
    }

    /// `RestoreTableFromBackup`: Creates a table from an on-demand backup.
    ///
    /// - Parameter input: The request (`RestoreTableFromBackupInput`).
    /// - Returns: The response (`RestoreTableFromBackupOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func restoreTableFromBackup(_ input: RestoreTableFromBackupInput) async throws -> RestoreTableFromBackupOutput {
        try await send(input)
    }

    /// `RestoreTableToPointInTime`: Creates a table from a point in time of another table.
    ///
    /// - Parameter input: The request (`RestoreTableToPointInTimeInput`).
    /// - Returns: The response (`RestoreTableToPointInTimeOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func restoreTableToPointInTime(_ input: RestoreTableToPointInTimeInput) async throws -> RestoreTableToPointInTimeOutput {
        try await send(input)
    }

    /// `UpdateContinuousBackups`: Turns point-in-time recovery on or off.
    ///
    /// - Parameter input: The request (`UpdateContinuousBackupsInput`).
    /// - Returns: The response (`UpdateContinuousBackupsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateContinuousBackups(_ input: UpdateContinuousBackupsInput) async throws -> UpdateContinuousBackupsOutput {
        try await send(input)
    }

    /// `CreateGlobalTable`: Creates a global table (version 2017.11.29) from existing tables.
    ///
    /// - Parameter input: The request (`CreateGlobalTableInput`).
    /// - Returns: The response (`CreateGlobalTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func createGlobalTable(_ input: CreateGlobalTableInput) async throws -> CreateGlobalTableOutput {
        try await send(input)
    }

    /// `DescribeGlobalTable`: Describes a global table (version 2017.11.29).
    ///
    /// - Parameter input: The request (`DescribeGlobalTableInput`).
    /// - Returns: The response (`DescribeGlobalTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeGlobalTable(_ input: DescribeGlobalTableInput) async throws -> DescribeGlobalTableOutput {
        try await send(input)
    }

    /// `DescribeGlobalTableSettings`: Describes the settings of a global table (version 2017.11.29).
    ///
    /// - Parameter input: The request (`DescribeGlobalTableSettingsInput`).
    /// - Returns: The response (`DescribeGlobalTableSettingsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeGlobalTableSettings(_ input: DescribeGlobalTableSettingsInput) async throws -> DescribeGlobalTableSettingsOutput {
        try await send(input)
    }

    /// `ListGlobalTables`: Lists global tables (version 2017.11.29).
    ///
    /// - Parameter input: The request (`ListGlobalTablesInput`).
    /// - Returns: The response (`ListGlobalTablesOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listGlobalTables(_ input: ListGlobalTablesInput) async throws -> ListGlobalTablesOutput {
        try await send(input)
    }

    /// `UpdateGlobalTable`: Adds or removes replicas of a global table (version 2017.11.29).
    ///
    /// - Parameter input: The request (`UpdateGlobalTableInput`).
    /// - Returns: The response (`UpdateGlobalTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateGlobalTable(_ input: UpdateGlobalTableInput) async throws -> UpdateGlobalTableOutput {
        try await send(input)
    }

    /// `UpdateGlobalTableSettings`: Updates the settings of a global table (version 2017.11.29).
    ///
    /// - Parameter input: The request (`UpdateGlobalTableSettingsInput`).
    /// - Returns: The response (`UpdateGlobalTableSettingsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateGlobalTableSettings(_ input: UpdateGlobalTableSettingsInput) async throws -> UpdateGlobalTableSettingsOutput {
        try await send(input)
    }

    /// `DescribeTableReplicaAutoScaling`: Describes auto scaling of a global table's replicas.
    ///
    /// - Parameter input: The request (`DescribeTableReplicaAutoScalingInput`).
    /// - Returns: The response (`DescribeTableReplicaAutoScalingOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeTableReplicaAutoScaling(_ input: DescribeTableReplicaAutoScalingInput) async throws -> DescribeTableReplicaAutoScalingOutput {
        try await send(input)
    }

    /// `UpdateTableReplicaAutoScaling`: Updates auto scaling of a global table's replicas.
    ///
    /// - Parameter input: The request (`UpdateTableReplicaAutoScalingInput`).
    /// - Returns: The response (`UpdateTableReplicaAutoScalingOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateTableReplicaAutoScaling(_ input: UpdateTableReplicaAutoScalingInput) async throws -> UpdateTableReplicaAutoScalingOutput {
        try await send(input)
    }

    /// `DescribeExport`: Describes a table export.
    ///
    /// - Parameter input: The request (`DescribeExportInput`).
    /// - Returns: The response (`DescribeExportOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeExport(_ input: DescribeExportInput) async throws -> DescribeExportOutput {
        try await send(input)
    }

    /// `DescribeImport`: Describes a table import.
    ///
    /// - Parameter input: The request (`DescribeImportInput`).
    /// - Returns: The response (`DescribeImportOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeImport(_ input: DescribeImportInput) async throws -> DescribeImportOutput {
        try await send(input)
    }

    /// `ExportTableToPointInTime`: Exports a table to Amazon S3.
    ///
    /// - Parameter input: The request (`ExportTableToPointInTimeInput`).
    /// - Returns: The response (`ExportTableToPointInTimeOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func exportTableToPointInTime(_ input: ExportTableToPointInTimeInput) async throws -> ExportTableToPointInTimeOutput {
        try await send(input)
    }

    /// `ImportTable`: Imports a new table from Amazon S3.
    ///
    /// - Parameter input: The request (`ImportTableInput`).
    /// - Returns: The response (`ImportTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func importTable(_ input: ImportTableInput) async throws -> ImportTableOutput {
        try await send(input)
    }

    /// `ListExports`: Lists table exports.
    ///
    /// - Parameter input: The request (`ListExportsInput`).
    /// - Returns: The response (`ListExportsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listExports(_ input: ListExportsInput) async throws -> ListExportsOutput {
        try await send(input)
    }

    /// `ListImports`: Lists table imports.
    ///
    /// - Parameter input: The request (`ListImportsInput`).
    /// - Returns: The response (`ListImportsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listImports(_ input: ListImportsInput) async throws -> ListImportsOutput {
        try await send(input)
    }

    /// `StartBulkPutItems`: Starts loading items from S3 into an existing table, in the background.
    ///
    /// - Parameter input: The request (`StartBulkPutItemsInput`); a `ClientToken` makes a retried
    ///   start return the same operation.
    /// - Returns: The response (`StartBulkPutItemsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func startBulkPutItems(_ input: StartBulkPutItemsInput) async throws -> StartBulkPutItemsOutput {
        try await send(input)
    }

    /// `DescribeBulkOperation`: Describes a bulk operation: its status, counts and usage.
    ///
    /// - Parameter input: The request (`DescribeBulkOperationInput`).
    /// - Returns: The response (`DescribeBulkOperationOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeBulkOperation(_ input: DescribeBulkOperationInput) async throws -> DescribeBulkOperationOutput {
        try await send(input)
    }

    /// `ListBulkOperations`: Lists the bulk operations of the last 90 days, newest first (one page;
    /// ``listBulkOperationsPages(_:)`` follows `NextToken`).
    ///
    /// - Parameter input: The request (`ListBulkOperationsInput`).
    /// - Returns: The response (`ListBulkOperationsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listBulkOperations(_ input: ListBulkOperationsInput) async throws -> ListBulkOperationsOutput {
        try await send(input)
    }

    /// `CancelBulkOperation`: Asks a running bulk operation to stop; what it wrote stays.
    ///
    /// - Parameter input: The request (`CancelBulkOperationInput`).
    /// - Returns: The response (`CancelBulkOperationOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func cancelBulkOperation(_ input: CancelBulkOperationInput) async throws -> CancelBulkOperationOutput {
        try await send(input)
    }
}
