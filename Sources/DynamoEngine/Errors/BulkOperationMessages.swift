import DynamoAPI

// EngineMessages, continued: the bulk operations (StartBulkPutItems, DescribeBulkOperation,
// ListBulkOperations, CancelBulkOperation) and the words of their output records.

// MARK: - BulkOperations/Database+BulkOperations.swift

extension EngineMessages {
    /// Thrown by BulkOperations (startBulkPutItems): `OutputS3Configuration` without `S3Bucket`
    /// (the API reference: "The S3Bucket and OutputType fields are required").
    static let bulkOutputBucketRequired = DynamoError.validation(
        "One or more parameter values were invalid: OutputS3Configuration.S3Bucket is required")

    /// Thrown by BulkOperations (startBulkPutItems): an empty `OutputType` ("Include one or both values").
    static let bulkOutputTypeRequired = DynamoError.validation(
        "One or more parameter values were invalid: OutputS3Configuration.OutputType must include ERROR, CONDITION_CHECK_FAILURE or both")

    /// Thrown by BulkOperations (startBulkPutItems): a value of `OutputType` given twice or unknown.
    static func bulkOutputTypeInvalid(_ value: String) -> DynamoError {
        .validation("One or more parameter values were invalid: OutputS3Configuration.OutputType has a duplicate or unknown value: \(value)")
    }

    /// Thrown by BulkOperations (startBulkPutItems): `S3SseKmsKeyId` with AES256 ("Don't specify it
    /// when the algorithm is AES256").
    static let bulkKmsKeyWithAES256 = DynamoError.validation(
        "One or more parameter values were invalid: S3SseKmsKeyId cannot be specified when S3SseAlgorithm is AES256")

    /// Thrown by BulkOperations (startBulkPutItems): the token of an operation started within
    /// the last 8 hours with other parameters.
    static let bulkIdempotentMismatch = DynamoError(
        .idempotentParameterMismatch, "ClientToken was already used with different parameters for another bulk operation")

    /// Thrown by BulkOperations (startBulkPutItems): the table is not ACTIVE (an index is being
    /// created or deleted) or belongs to a global table.
    static func bulkTableNotReady(_ name: String, reason: String) -> DynamoError {
        DynamoError(.resourceInUse, "Table \(name) cannot accept a bulk operation: \(reason)")
    }

    /// Thrown by BulkOperations (startBulkPutItems): as many operations are running as allowed.
    static func bulkTooManyOperations(limit: Int) -> DynamoError {
        DynamoError(.limitExceeded, "Too many bulk operations are in progress: at most \(limit) may run at the same time")
    }

    /// Thrown by BulkOperations (startBulkPutItems): the table already has an operation running.
    static func bulkTableBusy(_ name: String) -> DynamoError {
        DynamoError(.limitExceeded, "Table \(name) already has a bulk operation in progress")
    }

    /// Thrown by BulkOperations (describe, cancel): a `BulkOperationArn` that is not one.
    static let invalidBulkOperationArn = DynamoError.validation("Invalid BulkOperation ARN")

    /// Thrown by BulkOperations (describe, cancel).
    static func bulkOperationNotFound(_ arn: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Bulk operation not found: \(arn)")
    }

    /// Thrown by BulkOperations (cancelBulkOperation): the operation already ended.
    static func bulkOperationNotCancellable(_ arn: String, status: String) -> DynamoError {
        .validation("Bulk operation \(arn) cannot be cancelled in status \(status)")
    }
}

/// The words a bulk operation writes into its description and its output records (not errors
/// answered to a request, so plain strings: `FailureCode`/`FailureMessage` and `ErrorMessage`).
enum BulkOperationWords {
    /// `FailureCode` of a cancelled operation.
    static let cancelledCode = "CancelledByUser"
    /// `FailureMessage` of a cancelled operation.
    static let cancelledMessage = "The bulk operation was cancelled by a CancelBulkOperation request"
    /// `FailureCode` of an operation the server stopped (a crash or a restart) before it finished.
    static let interruptedCode = "InternalServerError"
    /// `FailureMessage` of an interrupted operation: what it counted stays true.
    static let interruptedMessage =
        "The server stopped before the bulk operation finished; the counts are those of the items written before it stopped"
    /// `ErrorMessage` of an input line that is not a record.
    static let notARecord = "A record must be a JSON object with an Item member"
    /// `ErrorMessage` of an Ion value that is not a record.
    static let notAnIonRecord = "A value must be a struct with an Item field"
    /// `ErrorMessage` of an object that cannot be decompressed.
    static func cannotDecompress(_ detail: String) -> String { "The object cannot be decompressed: \(detail)" }
    /// `ErrorMessage` of a record member of the wrong type.
    static func memberType(_ member: String, _ type: String) -> String { "\(member) must be \(type)" }
    /// The failure of an operation whose input prefix holds no object.
    static let noInputObjects = "No objects under the given S3 key prefix"
}

/// The words of an import's outcome (`ImportTableDescription`).
enum ImportWords {
    /// `FailureCode` of an import that skipped lines which are not items (the code the service
    /// records; scylladb/scylladb test/alternator/test_import.py, measured in 2026).
    static let itemValidationCode = "ItemValidationError"
    /// `FailureMessage` of such an import: the service's own sentence was not recorded, so this
    /// one says what happened.
    static func itemValidationMessage(errors: Int) -> String {
        "\(errors) of the source's items failed validation and were not imported; the rest were imported into the table"
    }
}
