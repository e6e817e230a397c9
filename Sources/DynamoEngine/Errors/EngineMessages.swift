import DynamoAPI

/// The engine's DynamoDB messages, word for word: each sentence is written here once and the
/// operations throw these, so no message is built in several places.
enum EngineMessages {
    /// The opening of DynamoDB's "parameter values were invalid" sentences.
    static let invalidParameters = "One or more parameter values were invalid: "
    /// The opening of the Kinesis streaming destination state errors.
    static let kinesisNotValid = "Table is not in a valid state to enable Kinesis Streaming Destination: "

    /// DisableKinesisStreamingDestination on a destination that is not ACTIVE.
    static let kinesisDisableNotActive = "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation."
    /// UpdateKinesisStreamingDestination on a destination that is not ACTIVE.
    static let kinesisUpdateNotActive = "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state."
    /// Enable/Disable/UpdateKinesisStreamingDestination on a destination that is not ACTIVE
    /// (`state` is one of the sentences above).
    static func kinesisNotActive(_ state: String) -> DynamoError {
        .validation(kinesisNotValid + state)
    }

    /// An item (put, import, batch or transaction put) over 400 KB.
    static let itemTooLarge = DynamoError.validation("Item size has exceeded the maximum allowed size")
    /// An update whose measured size is over 400 KB (see `UpdatePlan.measuredSize(writing:)`).
    static let updatedItemTooLarge =
        DynamoError.validation("Item size to update has exceeded the maximum allowed size")
    /// PutItem and DeleteItem with a `ReturnValues` other than `NONE` and `ALL_OLD`.
    static let returnValuesAllOldOrNone = DynamoError.validation("ReturnValues can only be ALL_OLD or NONE")
    /// The same key twice in one BatchGetItem table or one BatchWriteItem.
    static let duplicateKeys = DynamoError.validation("Provided list of item keys contains duplicates")

    /// A PartiQL SELECT on a secondary index that filters on attributes the index does not project.
    static func indexDoesNotProjectFilter(index: String, attributes: [String]) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Secondary index \(index) does not project "
                + "one or more filter attributes: [\(attributes.joined(separator: ", "))]")
    }

    /// A PartiQL SELECT on a global secondary index that selects attributes it does not project.
    static func globalIndexDoesNotProject(index: String, attributes: [String]) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Global secondary index \(index) does not project "
                + "[\(attributes.joined(separator: ", "))]")
    }
}

// MARK: - Backups/Database+Backups.swift

extension EngineMessages {
    /// Thrown by Backups (createBackup), ExportRun (exportLines), Exports (exportTableToPointInTime), ContinuousBackups (continuousBackupsTableNotFound), PointInTimeRestore (restoreTableToPointInTime).
    static func tableNotFound(name: String) -> DynamoError {
        DynamoError(.tableNotFound, "Table not found: \(name)")
    }

    /// Thrown by Backups (createBackup).
    static func tableBeingUpdated(name: String) -> DynamoError {
        DynamoError(.tableInUse, "Table is being updated: \(name)")
    }

    /// Thrown by Backups (listBackups).
    static let timeRangeBoundsReversed = DynamoError.validation("TimeRangeLowerBound must be less than or equal to TimeRangeUpperBound")

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

// MARK: - Batches/Database+BatchGet.swift

extension EngineMessages {
    /// Thrown by BatchGet (batchGetItem).
    static let expressionAndNonExpressionParameters = DynamoError.validation("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}")

    /// Thrown by BatchGet (batchGetItem).
    static let tooManyItemsRequestedBatchGetItem = DynamoError.validation("Too many items requested for the BatchGetItem call")
}

// MARK: - Batches/Database+BatchWrite.swift

extension EngineMessages {
    /// Thrown by BatchWrite (batchWriteItem).
    static let tooManyItemsRequestedBatchWriteItem = DynamoError.validation("Too many items requested for the BatchWriteItem call")

    /// Thrown by BatchWrite (batchWriteItem).
    static let suppliedAttributeValueMoreThanOne = DynamoError.validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
}

// MARK: - DynamoEngine.swift

extension EngineMessages {
    /// Thrown by DynamoEngine.init.
    static let engineShutDown = DynamoError(.serviceUnavailable, "The engine has shut down")
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
    static let incrementalExportTimesRequired = DynamoError.validation("IncrementalExportSpecification with ExportFromTime and ExportToTime is required for an incremental export")

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportPeriodOutsideRecoveryWindow = DynamoError(.invalidExportTime, "Export period must be within the point in time recovery window")

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportPeriodLength = DynamoError.validation("Export period must be between 15 minutes and 24 hours long")

    /// Thrown by Exports (exportTableToPointInTime).
    static let incrementalSpecificationOnFullExport = DynamoError.validation("IncrementalExportSpecification can only be specified for an incremental export")

    /// Thrown by Exports (exportTableToPointInTime).
    static let exportTimeOutsideRecoveryWindow = DynamoError(.invalidExportTime, "Export time must be within the point in time recovery window")

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

    /// Thrown by Imports (describeImport).
    static func importNotFound(importArn: String) -> DynamoError {
        DynamoError(.importNotFound, "Import not found: \(importArn)")
    }
}

// MARK: - GlobalTables/Database+GlobalTableSettings.swift

extension EngineMessages {
    /// Thrown by GlobalTableSettings (updateGlobalTableSettings), LegacyGlobalTables (updateGlobalTable).
    static func replicaNotFoundRegion(regionName: String) -> DynamoError {
        DynamoError(.replicaNotFound, "Replica not found in region: \(regionName)")
    }

    /// Thrown by GlobalTableSettings (updateGlobalTableSettings), ContributorInsights (insightsTarget).
    static func requestedResourceNotFoundIndex(indexName: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Index: \(indexName) not found")
    }
}

// MARK: - GlobalTables/Database+LegacyGlobalTables.swift

extension EngineMessages {
    /// Thrown by LegacyGlobalTables (legacyGroup).
    static let globalTableNotFound = DynamoError(.globalTableNotFound, "Global table not found")

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func tableNotFoundRegion(name: String, region: String) -> DynamoError {
        DynamoError(.tableNotFound, "Table: \(name) not found in region: \(region)")
    }

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func replicaKeySchemaDiffers(name: String, region: String) -> DynamoError {
        .validation(invalidParameters + "Table: \(name) in region: \(region) does not have the same key schema as the other replicas")
    }

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func replicaNeedsNewAndOldImagesStream(name: String, region: String) -> DynamoError {
        .validation(invalidParameters + "Table: \(name) in region: \(region) must have DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES")
    }

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func replicaNotEmpty(name: String, region: String) -> DynamoError {
        .validation(invalidParameters + "Table: \(name) in region: \(region) must be empty to join a global table")
    }

    /// Thrown by LegacyGlobalTables (createGlobalTable).
    static let globalTableNameAlreadyExists = DynamoError(.globalTableAlreadyExists, "Global table with this name already exists")

    /// Thrown by LegacyGlobalTables (updateGlobalTable).
    static func replicaAlreadyExistsRegion(regionName: String) -> DynamoError {
        DynamoError(.replicaAlreadyExists, "Replica already exists in region: \(regionName)")
    }

    /// Thrown by LegacyGlobalTables (updateGlobalTable).
    static let replicaUpdateWithoutCreateOrDelete = DynamoError.validation(invalidParameters + "One of Create or Delete must be specified in a ReplicaUpdate")
}

// MARK: - GlobalTables/Database+ReplicaAutoScaling.swift

extension EngineMessages {
    /// Thrown by ReplicaAutoScaling (updateTableReplicaAutoScaling).
    static let replicaAutoScalingUpdateEmpty = DynamoError.validation(invalidParameters + "At least one of ProvisionedWriteCapacityAutoScalingUpdate, GlobalSecondaryIndexUpdates or ReplicaUpdates is required")

    /// Thrown by ReplicaAutoScaling (updateTableReplicaAutoScaling).
    static func tableNoReplicaRegion(definitionName: String, regionName: String) -> DynamoError {
        .validation(invalidParameters + "Table \(definitionName) has no replica in region \(regionName)")
    }

    /// Thrown by ReplicaAutoScaling (merge).
    static func minimumUnitsNotGreaterThanMaximumUnits(minimum: Int, maximum: Int) -> DynamoError {
        .validation(invalidParameters + "MinimumUnits (\(minimum)) must not be greater than MaximumUnits (\(maximum))")
    }
}

// MARK: - GlobalTables/Database+ReplicaUpdates.swift

extension EngineMessages {
    /// Thrown by ReplicaUpdates (replicationConnection).
    static let globalTablesNeedRegionNamespaces = DynamoError.validation("Global tables need a server with one namespace per region")

    /// Thrown by ReplicaUpdates (updateReplicas).
    static func legacyGlobalTableReplicaUpdates(definitionName: String) -> DynamoError {
        .validation("Table \(definitionName) is a global table of version \(GlobalTableVersion.legacy): use UpdateGlobalTable to change its replicas")
    }

    /// Thrown by ReplicaUpdates (checkReadOverride), UpdateTable (updateTable), TableValidation.checkBilling.
    static let neitherReadCapacityUnitsNorWriteCapacityUnitsSpecified = DynamoError.validation(invalidParameters + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")

    /// Thrown by ReplicaUpdates (createReplica).
    static let tableWriteCapacityNotAutoScaled = DynamoError.validation("Table write capacity should either be Pay-Per-Request or AutoScaled.")

    /// Thrown by ReplicaUpdates (createReplica).
    static let indexWriteCapacityNotAutoScaled = DynamoError.validation("GSI write capacity should either be Pay-Per-Request or AutoScaled.")

    /// Thrown by ReplicaUpdates (deleteReplica).
    static func replicaDeletionProtected(definitionName: String, target: String) -> DynamoError {
        .validation("Cannot delete table \(definitionName) in region \(target) because it has deletion protection enabled. Disable deletion protection first.")
    }

    /// Thrown by ReplicaUpdates (describeReplicaUpdate).
    static let replicaUpdatesOnlyOperationRequest = DynamoError.validation(invalidParameters + "ReplicaUpdates must be the only operation in the request")
}

// MARK: - GlobalTables/ReplicaUpdateRules.swift

extension EngineMessages {
    /// Thrown by ReplicaUpdateRules.alreadyExisted.
    static func failedCreateNewReplicaTable(table: String) -> DynamoError {
        .validation("Failed to create a the new replica of table with name: \u{2018}\(table)\u{2019} because one or more replicas already existed as tables.")
    }

    /// Thrown by ReplicaUpdateRules.check.
    static let emptyReplicaUpdateAction = DynamoError.validation("There are no actions specified in the Replica Update Action of the request.")

    /// Thrown by ReplicaUpdateRules.check.
    static let mixedReplicaActions = DynamoError.validation("Update table operation with more than one type of replica actions not allowed.")

    /// Thrown by ReplicaUpdateRules.check.
    static let multipleReplicaCreateOrDelete = DynamoError.validation("Update table operation with more than one create or delete replica actions not allowed")

    /// Thrown by ReplicaUpdateRules.check.
    static func updateGlobalTableOperationFailed(missing: [String]) -> DynamoError {
        .validation("Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [\(missing.joined(separator: ", "))].")
    }

    /// Thrown by ReplicaUpdateRules.localRegionError.
    static func localRegionReplicaUpdate(update: Bool) -> DynamoError {
        .validation((update ? "Cannot add, delete, or update" : "Cannot add or delete") + " the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required.")
    }
}

// MARK: - GlobalTables/ReplicationHub.swift

extension EngineMessages {
    /// Thrown by ReplicationHub.database.
    static let globalTablesNeedUnsharedDB = DynamoError.validation("Global tables need one namespace per region: this server runs with --shared-db, where every region shares one set of tables")

    /// Thrown by ReplicationHub.database.
    static let replicationNotConnectedEngine = DynamoError(.internalServerError, "Replication is not connected to an engine")
}

// MARK: - Items/ConditionCheck.swift

extension EngineMessages {
    /// Thrown by ConditionCheck.verify.
    static func conditionalRequestFailed(returnsItem: Bool, item: Item?) -> DynamoError {
        DynamoError(.conditionalCheckFailed, "The conditional request failed", item: returnsItem ? item : nil)
    }
}

// MARK: - Items/KeyValidation.swift

extension EngineMessages {
    /// Thrown by KeyValidation.keyShapeError.
    static func missingKeyItem(attributeName: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Missing the key \(attributeName) in the item")
    }

    /// Thrown by KeyValidation.keyShapeError.
    static func typeMismatchKeyExpectedActual(attributeName: String, typeRawValue: String, typeDescriptor: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Type mismatch for key \(attributeName) expected: \(typeRawValue) actual: \(typeDescriptor)")
    }

    /// Thrown by KeyValidation.encodeKey.
    static let hashKeyTooLarge = DynamoError.validation("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")

    /// Thrown by KeyValidation.encodeKey.
    static let rangeKeysTooLarge = DynamoError.validation("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes")

    /// Thrown by KeyValidation.checkNotEmpty.
    static func attributeValueKeyAttributeCannotContain(prefix: String, name: String) -> DynamoError {
        .validation("\(prefix)The AttributeValue for a key attribute cannot contain an empty string value. Key: \(name)")
    }

    /// Thrown by KeyValidation.checkNotEmpty.
    static func attributeValueKeyAttributeCannotContain2(prefix: String, name: String) -> DynamoError {
        .validation("\(prefix)The AttributeValue for a key attribute cannot contain an empty binary value. Key: \(name)")
    }

    /// Thrown by KeyValidation.checkNotEmpty.
    static let keyElementMismatch = DynamoError.validation("The provided key element does not match the schema")
}

// MARK: - PITR/Database+ContinuousBackups.swift

extension EngineMessages {
    /// Thrown by ContinuousBackups (updateContinuousBackups).
    static let recoveryPeriodInDaysOnlySpecifiedWhenPointInTimeRecoveryEnabled = DynamoError.validation("RecoveryPeriodInDays can only be specified when PointInTimeRecoveryEnabled is true")
}

// MARK: - PITR/Database+PointInTimeRestore.swift

extension EngineMessages {
    /// Thrown by PointInTimeRestore (restoreTableToPointInTime).
    static let eitherSourceTableArnSourceTableNameSpecified = DynamoError.validation("Either SourceTableArn or SourceTableName must be specified")

    /// Thrown by PointInTimeRestore (restoreTableToPointInTime).
    static let onlyOneSourceTableArnSourceTableNameSpecified = DynamoError.validation("Only one of SourceTableArn or SourceTableName can be specified")

    /// Thrown by PointInTimeRestore (restoreTime).
    static let onlyOneRestoreDateTimeUseLatestRestorableTimeSpecified = DynamoError.validation("Only one of RestoreDateTime or UseLatestRestorableTime can be specified")

    /// Thrown by PointInTimeRestore (restoreTime).
    static func restoreDateTimeBetweenEarliestRestorableDateTimeLatestRestorableDateTime(earliest: Double, latest: Double) -> DynamoError {
        DynamoError(.invalidRestoreTime, "RestoreDateTime must be between EarliestRestorableDateTime (\(Timestamp(secondsSince1970: earliest))) and LatestRestorableDateTime (\(Timestamp(secondsSince1970: latest)))")
    }
}

// MARK: - PartiQL/Database+PartiQLSelect.swift

extension EngineMessages {
    /// Thrown by PartiQLSelect (executeSelect).
    static let tableDoesNotHaveSpecified = DynamoError.validation("The table does not have the specified index")
}

// MARK: - Reads/Database+Query.swift

extension EngineMessages {
    /// Thrown by Query (init).
    static let providedStartingKeyInvalid = DynamoError.validation("The provided starting key is invalid")

    /// Thrown by Query (checkStartKey).
    static let providedStartingKeyOutsideQuery = DynamoError.validation("The provided starting key is outside query boundaries based on provided conditions")

    /// Thrown by Query (checkStartKey).
    static let startingKeySchemaMismatch = DynamoError.validation("The provided starting key does not match the range key predicate")

    /// Thrown by Query (readingIndex), Query (readableIndex).
    static func tableDoesNotHaveSpecified2(indexName: String) -> DynamoError {
        .validation("The table does not have the specified index: \(indexName)")
    }

    /// Thrown by Query (readableIndex).
    static let consistentReadsNotSupportedGlobal = DynamoError.validation("Consistent reads are not supported on global secondary indexes")

    /// Thrown by Query (readableIndex).
    static func cannotReadFromBackfillingGlobal(name: String) -> DynamoError {
        .validation("Cannot read from backfilling global secondary index: \(name)")
    }

    /// Thrown by Query (indexStartRow).
    static let providedStartingKeyInvalidProvided = DynamoError.validation("The provided starting key is invalid: The provided key element does not match the schema")

    /// Thrown by Query (resolve), ReadRequests (spec), MultiAttributeKeys.resolve, MultiAttributeKeys.condition.
    static func queryConditionMissedKeyElement(_ name: String) -> DynamoError {
        .validation("Query condition missed key schema element: \(name)")
    }

    /// Thrown by Query (resolve), Query (operandBytes).
    static let conditionTypeMismatch = DynamoError.validation("One or more parameter values were invalid: Condition parameter type does not match schema type")

    /// Thrown by Query (resolve), ReadRequests (spec), MultiAttributeKeys.condition.
    static let queryKeyConditionNotSupported = DynamoError.validation("Query key condition not supported")

    /// Thrown by Query (operandBytes).
    static let invalidKeyConditionExpressionIncorrectOperandType = DynamoError.validation("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
}

// MARK: - Reads/Database+ReadRequests.swift

extension EngineMessages {
    /// Thrown by ReadRequests (query).
    static let eitherKeyConditionsKeyConditionExpressionParameterSpecified = DynamoError.validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")

    /// Thrown by ReadRequests (checkSelect).
    static func duplicateValueAttributeName(duplicate: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Duplicate value in attribute name: \(duplicate)")
    }

    /// Thrown by ReadRequests (checkSelect).
    static func cannotSpecifyProjectionExpressionWhenChoosing(choosing: String) -> DynamoError {
        .validation("Cannot specify the ProjectionExpression when choosing to get \(choosing)")
    }

    /// Thrown by ReadRequests (checkSelect).
    static func cannotSpecifyAttributesToGetWhenChoosing(choosing: String) -> DynamoError {
        .validation("Cannot specify the AttributesToGet when choosing to get \(choosing)")
    }

    /// Thrown by ReadRequests (checkSelect).
    static let specifyAttributesToGetProjectionExpressionWhenChoosing = DynamoError.validation("Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")

    /// Thrown by ReadRequests (checkSelect).
    static let allProjectedAttributesUsedOnly = DynamoError.validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")

    /// Thrown by ReadRequests (checkSegments).
    static let totalSegmentsMissing = DynamoError.validation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")

    /// Thrown by ReadRequests (checkSegments).
    static let segmentMissing = DynamoError.validation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")

    /// Thrown by ReadRequests (checkSegments).
    static func segmentOutOfRange(segment: Int, total: Int) -> DynamoError {
        .validation("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: \(segment) is not less than TotalSegments: \(total)")
    }

    /// Thrown by ReadRequests (fetchesTableItems).
    static func selectTypeAllAttributesNot(indexName: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index \(indexName) because its projection type is not ALL")
    }

    /// Thrown by ReadRequests (spec).
    static func numberQueryConditionsExceedsNumber(termsCount: Int, keyCount: Int) -> DynamoError {
        .validation("The number of query conditions (\(termsCount)) exceeds the number of key attributes defined in the schema (\(keyCount))")
    }

}

// MARK: - Reads/Database+Scan.swift

extension EngineMessages {
    /// Thrown by Scan (scan).
    static let providedExclusiveStartKeyDoes = DynamoError.validation("The provided Exclusive start key does not map to the provided Segment and TotalSegments values.")

    /// Thrown by Scan (startKey).
    static func startingKeyInvalidBecause(errorMessage: String?) -> DynamoError {
        .validation("The provided starting key is invalid: \(errorMessage ?? "")")
    }
}

// MARK: - Reads/MultiAttributeKeys.swift

extension EngineMessages {
    /// Thrown by MultiAttributeKeys.condition.
    static func rangeKeyAttributesHaveEquality(lacking: [KeyAttribute], sortAttributes: [KeyAttribute], lastIndex: Array<KeyAttribute>.Index) -> DynamoError {
        .validation("RANGE key attributes \(lacking.map(\.name).joined(separator: ", ")) must have " + "equality conditions specified in the query because a condition is present on key " + "attribute \(sortAttributes[lastIndex].name)")
    }
}

// MARK: - Settings/Database+ContributorInsights.swift

extension EngineMessages {
    /// Thrown by ContributorInsights (listContributorInsights).
    static func invalidNextToken2(token: String) -> DynamoError {
        .validation("Invalid NextToken: \(token)")
    }
}

// MARK: - Settings/Database+KinesisDestinations.swift

extension EngineMessages {
    /// Thrown by KinesisDestinations (enableKinesisStreamingDestination).
    static let kinesisDestinationAlreadyLive = DynamoError.validation(kinesisNotValid + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation.")

    /// Thrown by KinesisDestinations (updateKinesisStreamingDestination).
    static let kinesisUpdateWithoutConfiguration = DynamoError.validation("Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values")

    /// Thrown by KinesisDestinations (updateKinesisStreamingDestination).
    static func invalidRequestPrecisionAlreadySet(current: ApproximateCreationDateTimePrecision, tableID: String, streamArn: String) -> DynamoError {
        .validation("Invalid Request: Precision is already set to the desired value of \(current) for tableId: \(tableID), kdsArn: \(streamArn)")
    }
}

// MARK: - Settings/Database+ResourcePolicies.swift

extension EngineMessages {
    /// Thrown by ResourcePolicies (policyTable).
    static func arnMustStartWithArn(arn: String) -> DynamoError {
        .validation(invalidParameters + "ARNs must start with 'arn:': \(arn)")
    }

    /// Thrown by ResourcePolicies (policyTable).
    static func invalidResourceArn(arn: String) -> DynamoError {
        .validation(invalidParameters + "Invalid resource Arn: \(arn)")
    }

    /// Thrown by ResourcePolicies (policyTable).
    static func providedArnNotDynamoDBResource(arn: String) -> DynamoError {
        .validation(invalidParameters + "Provided Arn is not a DynamoDB resource arn: \(arn)")
    }

    /// Thrown by ResourcePolicies (policyTable).
    static func invalidResourceArnProvidedOnly(arn: String) -> DynamoError {
        .validation(invalidParameters + "Invalid resource arn provided, only table or stream is accepted. Provided resource arn: \(arn)")
    }

    /// Thrown by ResourcePolicies (policyTable).
    /// (The sentence is StreamErrors' own, written once there.)
    static func requestedResourceNotFoundTable(name: String) -> DynamoError {
        StreamErrors.tableNotFound(name)
    }

    /// Thrown by ResourcePolicies (policyTable).
    static func requestedResourceNotFoundStream(resource: [Substring.SubSequence], name: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Stream: \(resource[3]) not found for Table: \(name)")
    }

    /// Thrown by ResourcePolicies (policyNotFound).
    static func resourceBasedPolicyNotFound(detail: String) -> DynamoError {
        DynamoError(.policyNotFound, "Resource-based policy not found for the provided ResourceArn: \(detail)")
    }

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static func policyDocumentSizeBytesExceeds(utf8Count: Int, maximumPolicyBytes: Int) -> DynamoError {
        .validation("Policy document size \(utf8Count) bytes exceeds the maximum allowed size of \(maximumPolicyBytes) bytes")
    }

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static let invalidPolicyDocumentPolicyNot = DynamoError.validation("Invalid policy document: the policy is not a valid JSON object")

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static let invalidPolicyDocumentMissingRequired = DynamoError.validation("Invalid policy document: Missing required field Statement")

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static let invalidPolicyDocumentStatementObject = DynamoError.validation("Invalid policy document: Statement must be an object or an array")
}

// MARK: - Settings/WarmThroughput.swift

extension EngineMessages {
    /// Thrown by WarmThroughput.applyWarmThroughput.
    static let warmThroughputContainReadUnitsPerSecondWriteUnitsPerSecond = DynamoError.validation(invalidParameters + "WarmThroughput must contain ReadUnitsPerSecond or WriteUnitsPerSecond")

    /// Thrown by WarmThroughput.applyWarmThroughput.
    static let requestedReadUnitsPerSecondWarmThroughputTableLower = DynamoError.validation(invalidParameters + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput value")

    /// Thrown by WarmThroughput.applyWarmThroughput.
    static let requestedWriteUnitsPerSecondWarmThroughputTableLower = DynamoError.validation(invalidParameters + "Requested WriteUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput value")
}

// MARK: - Storage/Database.swift

extension EngineMessages {
    /// Thrown by Database.migrate.
    static func databaseWrittenByNewerLocaldynamo(current: Int64, schemaVersion: Int64) -> DynamoError {
        DynamoError(.internalServerError, "Database was written by a newer localdynamo (schema \(current) > \(schemaVersion))")
    }
}

// MARK: - Storage/IndexKeyEncoding.swift

extension EngineMessages {
    /// Thrown by IndexKeyEncoding.typeMismatch.
    static func typeMismatchIndexKeyExpected(attributeName: String, typeRawValue: String, typeDescriptor: String, name: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Type mismatch for Index Key \(attributeName) Expected: \(typeRawValue) Actual: \(typeDescriptor) IndexName: \(name)")
    }

    /// Thrown by IndexKeyEncoding.storedKey.
    static func oneMoreParameterValuesNot(kind: String, name: String, attributeName: String) -> DynamoError {
        .validation("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty \(kind) value. IndexName: \(name), IndexKey: \(attributeName)")
    }

    /// Thrown by IndexKeyEncoding.checkKeySizes.
    static func sizeLimitExceededIndexKey(attributeName: String, size: Int, name: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Size limit exceeded for Index Key \(attributeName) Actual Size: \(size) bytes Max Size: \(TableDefinition.maximumPartitionKeyBytes) bytes IndexName: \(name)")
    }

    /// Thrown by IndexKeyEncoding.checkKeySizes.
    static let indexRangeKeysTooLarge = DynamoError.validation("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of \(TableDefinition.maximumSortKeyBytes) bytes")

    /// Thrown by IndexKeyEncoding.updatedIndexKeyError.
    static func oneMoreParameterValuesNot2(kind: String) -> DynamoError {
        .validation("One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty \(kind) value.")
    }
}

// MARK: - Streams/StreamCatalog.swift

extension EngineMessages {
    /// Thrown by StreamCatalog.startStream.
    static let newStreamNotStored = DynamoError(.internalServerError, "The new stream was not stored")
}

// MARK: - Streams/StreamRecordWriter.swift

extension EngineMessages {
    /// Thrown by StreamRecordWriter.appender.
    static func streamTableMissing(table: String) -> DynamoError {
        DynamoError(.internalServerError, "The stream of table \(table) is missing")
    }

    /// Thrown by StreamRecordWriter.rollOverIfDue.
    static let newShardNotStored = DynamoError(.internalServerError, "The new shard was not stored")
}

// MARK: - TTL/Database+TimeToLive.swift

extension EngineMessages {
    /// Thrown by TimeToLive (updateTimeToLive).
    static func timeToLiveActiveDifferentAttributeNameCurrent(current: String) -> DynamoError {
        .validation("TimeToLive is active on a different AttributeName: current AttributeName is \(current)")
    }

    /// Thrown by TimeToLive (updateTimeToLive).
    static func timeToLiveAlreadyInState(enabled: Bool) -> DynamoError {
        .validation(enabled ? "TimeToLive is already enabled" : "TimeToLive is already disabled")
    }

    /// Thrown by TimeToLive (updateTimeToLive).
    static let timeToLiveModifiedTooOften = DynamoError.validation("Time to live has been modified multiple times within a fixed interval")
}

// MARK: - Tables/Database+CreateTable.swift

extension EngineMessages {
    /// Thrown by CreateTable (validatedDefinition).
    static let keySchemaSpecified = DynamoError.validation(invalidParameters + "KeySchema must be specified")

    /// Thrown by CreateTable (validatedDefinition).
    static func keySchemaTooLong(rendered: [String]) -> DynamoError {
        .validation("1 validation error detected: Value '[\(rendered.joined(separator: ", "))]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static let numberAttributesKeySchemaDoesNot = DynamoError.validation(invalidParameters + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")

    /// Thrown by CreateTable (validatedDefinition).
    static let listLocalSecondaryIndexesEmpty = DynamoError.validation(invalidParameters + "List of LocalSecondaryIndexes is empty")

    /// Thrown by CreateTable (validatedDefinition).
    static let tableKeySchemaDoesNotHave = DynamoError.validation(invalidParameters + "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")

    /// Thrown by CreateTable (validatedDefinition).
    static func indexKeySchemaDoesNotHave(indexName: String) -> DynamoError {
        .validation(invalidParameters + "Index KeySchema does not have a range key for index: \(indexName)")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static func indexKeySchemaDoesNotHave2(indexName: String, hashName: String, partitionKeyName: String) -> DynamoError {
        .validation(invalidParameters + "Index KeySchema does not have the same leading hash key as table KeySchema for index: \(indexName). index hash key: \(hashName), table hash key: \(partitionKeyName)")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static func duplicateIndexName(indexName: String) -> DynamoError {
        .validation(invalidParameters + "Duplicate index name: \(indexName)")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static let numberLocalSecondaryIndexesExceedsPerTable = DynamoError.validation(invalidParameters + "Number of LocalSecondaryIndexes exceeds per-table limit of 5")

    /// Thrown by CreateTable (validatedDefinition).
    static let listGlobalSecondaryIndexesEmpty = DynamoError.validation(invalidParameters + "List of GlobalSecondaryIndexes is empty")

    /// Thrown by CreateTable (validatedDefinition).
    static let globalSecondaryIndexCountExceedsPerTable = DynamoError.validation(invalidParameters + "GlobalSecondaryIndex count exceeds the per-table limit of 20")

    /// Thrown by CreateTable (validatedDefinition).
    static let duplicateAttributeNameAttributeDefinitions = DynamoError.validation(invalidParameters + "Duplicate AttributeName in AttributeDefinitions")

    /// Thrown by CreateTable (validatedDefinition).
    static let tableBeingCreatedStreamEnabled = DynamoError.validation(invalidParameters + "Table is being created with a stream enabled, UpdateViewType is required")

    /// Thrown by CreateTable (validatedDefinition).
    static let tableBeingCreatedStreamDisabled = DynamoError.validation(invalidParameters + "Table is being created with a stream disabled, UpdateViewType should not be specified")
}

// MARK: - Tables/Database+Tables.swift

extension EngineMessages {
    /// Thrown by Tables (deleteTable).
    static let resourceCannotDeletedAsIt = DynamoError(.validation, "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")

    /// Thrown by Tables (deleteTable).
    static let attemptChangeResourceWhichStill = DynamoError(.resourceInUse, "Attempt to change a resource which is still in use: Cannot delete table while indexes are being created, updated, or deleted.")
}

// MARK: - Tables/Database+Tags.swift

extension EngineMessages {
    /// Thrown by Tags (taggedTable).
    static func invalidTableArnInvalidResourceArnProvided(arn: String) -> DynamoError {
        .validation("Invalid TableArn: Invalid ResourceArn provided as input \(arn)")
    }

    /// Thrown by Tags (taggedTable).
    static func resourceArnNotFound(arn: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: ResourcArn: \(arn) not found")
    }
}

// MARK: - Tables/Database+UpdateTable.swift

extension EngineMessages {
    /// Thrown by UpdateTable (updateTable).
    static let atLeastOneProvisionedThroughputBillingMode = DynamoError.validation("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required")

    /// Thrown by UpdateTable (updateTable).
    static let listGlobalSecondaryIndexUpdatesEmpty = DynamoError.validation(invalidParameters + "List of GlobalSecondaryIndexUpdates is empty")

    /// Thrown by UpdateTable (updateTable).
    static let provisionedThroughputSpecifiedWhenBillingModeProvisioned = DynamoError.validation(invalidParameters + "ProvisionedThroughput must be specified when BillingMode is PROVISIONED")

    /// Thrown by UpdateTable (updateTable).
    static func provisionedThroughputTableWillNot(readCapacityUnits: Int, readCapacityUnits2: Int, writeCapacityUnits: Int, writeCapacityUnits2: Int) -> DynamoError {
        .validation("The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: \(readCapacityUnits). Requested ReadCapacityUnits: \(readCapacityUnits2). Current WriteCapacityUnits provisioned for the table: \(writeCapacityUnits). Requested WriteCapacityUnits: \(writeCapacityUnits2). Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.")
    }

    /// Thrown by UpdateTable (updateTable).
    static func provisionedThroughputSpecifiedIndex(unsetName: String) -> DynamoError {
        .validation(invalidParameters + "ProvisionedThroughput must be specified for index: \(unsetName)")
    }

    /// Thrown by UpdateTable (updateTable).
    static let ifStreamBeingEnabledThen = DynamoError.validation(invalidParameters + "If stream is being enabled then UpdateViewType is required")

    /// Thrown by UpdateTable (updateTable).
    static func tableAlreadyEnabledStreamTableName(definitionName: String) -> DynamoError {
        .validation("Table already has an enabled stream: TableName: \(definitionName)")
    }

    /// Thrown by UpdateTable (updateTable).
    static let ifStreamBeingDisabledThen = DynamoError.validation(invalidParameters + "If stream is being disabled, then UpdateViewType must not be specified")

    /// Thrown by UpdateTable (updateTable).
    static func tableNoStreamDisableTableName(definitionName: String) -> DynamoError {
        .validation("Table has no stream to disable: TableName: \(definitionName)")
    }
}

// MARK: - Tables/IndexUpdates.swift

extension EngineMessages {
    /// Thrown by IndexUpdates..
    static let subscriberLimitExceededOnly1 = DynamoError(.limitExceeded, "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")

    /// Thrown by IndexUpdates.checkCombination.
    static let youCannotCreateDeleteIndex = DynamoError.validation("You cannot create or delete index while updating table IOPS")

    /// Thrown by IndexUpdates.checkCombination.
    static let youCannotCreateDeleteIndex2 = DynamoError.validation("You cannot create or delete index while changing stream status")

    /// Thrown by IndexUpdates.checkCombination.
    static let deletionProtectionModificationOnlyOperationRequest = DynamoError.validation("DeletionProtection modification must be the only operation in the request")

    /// Thrown by IndexUpdates.checkCombination.
    static let serverSideEncryptionModificationOnly = DynamoError.validation("Server-Side Encryption modification must be the only operation in the request")

    /// Thrown by IndexUpdates.checkCombination.
    static let tableClassModificationOnlyOperationRequest = DynamoError.validation("TableClass modification must be the only operation in the request")

    /// Thrown by IndexUpdates.apply.
    static let oneGlobalSecondaryIndexUpdateUpdateGlobalSecondaryIndexUpdateCreate = DynamoError.validation(invalidParameters + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")

    /// Thrown by IndexUpdates.apply.
    static let onlyOneGlobalSecondaryIndex = DynamoError.validation(invalidParameters + "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object")

    /// Thrown by IndexUpdates.apply.
    static func onlyOneGlobalSecondaryIndex2(actions: [String]) -> DynamoError {
        .validation(invalidParameters + "Only one global secondary index update per index is allowed simultaneously. Index: \(actions[0])")
    }

    /// Thrown by IndexUpdates.create.
    static let attemptingCreateIndexWhichAlready = DynamoError.validation("Attempting to create an index which already exists")

    /// Thrown by IndexUpdates.create.
    static func attributeDefinitionsNotSpecifiedIndex(indexName: String) -> DynamoError {
        .validation(invalidParameters + "AttributeDefinitions is not specified for index: \(indexName)")
    }

    /// Thrown by IndexUpdates.create.
    static func bothReadCapacityUnitsWriteCapacityUnitsSpecifiedIndex(indexName: String) -> DynamoError {
        .validation(invalidParameters + "Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: \(indexName)")
    }

    /// Thrown by IndexUpdates.create.
    static func subscriberLimitExceededNumberGlobal(maximumGlobalIndexes: Int) -> DynamoError {
        DynamoError(.limitExceeded, "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of \(maximumGlobalIndexes)")
    }

    /// Thrown by IndexUpdates.globalIndexPosition.
    static func cannotIndexThatNotGlobalSecondaryIndex(verb: String, name: String) -> DynamoError {
        .validation("Cannot \(verb) an index that is not a GlobalSecondaryIndex: \(name)")
    }

    /// Thrown by IndexUpdates.globalIndexPosition.
    static func requestedResourceNotFoundIndex3(name: String, definitionName: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Index \(name) for table \(definitionName)")
    }

    /// Thrown by IndexUpdates.globalIndexPosition.
    static func attemptChangeResourceWhichStill2(definitionName: String, name: String) -> DynamoError {
        DynamoError(.resourceInUse, "Attempt to change a resource which is still in use: Index is being deleted. Table: \(definitionName) Index: \(name)")
    }

    /// Thrown by IndexUpdates.updateThroughput.
    static func onlyUpdatesIndexWhenTableThroughputMode(indexName: String) -> DynamoError {
        .validation("The only Updates for index: \(indexName) when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput")
    }

    /// Thrown by IndexUpdates.updateThroughput.
    static func provisionedThroughputIndexWillNot(name: String, readCapacityUnits: Int, readCapacityUnits2: Int, writeCapacityUnits: Int, writeCapacityUnits2: Int) -> DynamoError {
        .validation("The provisioned throughput for the index \(name) will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for index \(name): \(readCapacityUnits). Requested ReadCapacityUnits: \(readCapacityUnits2). Current WriteCapacityUnits provisioned for index \(name): \(writeCapacityUnits). Requested WriteCapacityUnits: \(writeCapacityUnits2). Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.")
    }
}

// MARK: - Tables/TableValidation.swift

extension EngineMessages {
    /// Thrown by TableValidation.checkBilling.
    static let readCapacityUnitsWriteCapacityUnitsBothSpecifiedWhen = DynamoError.validation(invalidParameters + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")

    /// Thrown by TableValidation.checkThroughputBounds.
    static func givenValueReadCapacityUnitsOutBounds(read: Int) -> DynamoError {
        .validation("Given value \(read) for ReadCapacityUnits is out of bounds")
    }

    /// Thrown by TableValidation.checkThroughputBounds.
    static func givenValueWriteCapacityUnitsOutBounds(write: Int) -> DynamoError {
        .validation("Given value \(write) for WriteCapacityUnits is out of bounds")
    }

    /// Thrown by TableValidation.indexThroughput.
    static func provisionedThroughputShouldNotSpecifiedIndex(index: String) -> DynamoError {
        .validation(invalidParameters + "ProvisionedThroughput should not be specified for index: \(index) when BillingMode is PAY_PER_REQUEST")
    }

    /// Thrown by TableValidation.indexThroughput.
    static func provisionedThroughputNotSpecifiedIndex(index: String) -> DynamoError {
        .validation(invalidParameters + "ProvisionedThroughput is not specified for index: \(index)")
    }

    /// Thrown by TableValidation.resolveKeySchema.
    static let invalidKeySchemaSomeIndexKey = DynamoError.validation("Invalid KeySchema: Some index key attribute have no definition")

    /// Thrown by TableValidation.resolveKeySchema, TableValidation.resolveGlobalIndexKeySchema.
    static func someIndexKeyAttributesNot(keyNames: [String], definedNames: [String]) -> DynamoError {
        .validation(invalidParameters + "Some index key attributes are not defined in AttributeDefinitions. Keys: [\(keyNames.joined(separator: ", "))], AttributeDefinitions: [\(definedNames.joined(separator: ", "))]")
    }

    /// Thrown by TableValidation.resolveKeySchema.
    static let bothHashKeyRangeKey = DynamoError.validation("Both the Hash Key and the Range Key element in the KeySchema have the same name")

    /// Thrown by TableValidation.resolveKeySchema, TableValidation.resolveGlobalIndexKeySchema.
    static let invalidKeySchemaFirstKeySchemaElementNot = DynamoError.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")

    /// Thrown by TableValidation.resolveKeySchema.
    static let invalidKeySchemaSecondKeySchemaElementNot = DynamoError.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let keySchemaContainsMultipleKeyAttributes = DynamoError.validation("The KeySchema contains multiple key attributes with the same name")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let allHashKeyAttributesPrecede = DynamoError.validation(invalidParameters + "All HASH key attributes must precede RANGE key attributes in the KeySchema")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let keySchemaExceedsMaximumAllowedNumber = DynamoError.validation(invalidParameters + "The KeySchema exceeds the maximum allowed number of HASH key attributes")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let keySchemaExceedsMaximumAllowedNumber2 = DynamoError.validation(invalidParameters + "The KeySchema exceeds the maximum allowed number of RANGE key attributes")

    /// Thrown by TableValidation.checkProjection.
    static let unknownProjectionTypeNull = DynamoError.validation(invalidParameters + "Unknown ProjectionType: null")

    /// Thrown by TableValidation.checkProjection.
    static func projectionTypeButNonKeyAttributesSpecified(type: ProjectionType) -> DynamoError {
        .validation(invalidParameters + "ProjectionType is \(type), but NonKeyAttributes is specified")
    }

    /// Thrown by TableValidation.checkProjection.
    static let projectionTypeIncludeButNonKeyAttributesNot = DynamoError.validation(invalidParameters + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
}

// MARK: - Tables/TagRules.swift

extension EngineMessages {
    /// Thrown by TagRules.check.
    static func invalidTagKeyTagKeys(key: String) -> DynamoError {
        .validation("Invalid tag key: \(key). Tag keys may only contain letters, numbers, white space and + - = . _ : /")
    }

    /// Thrown by TagRules.check.
    static func invalidTagValueKeyTag(key: String) -> DynamoError {
        .validation("Invalid tag value for key \(key). Tag values may only contain letters, numbers, white space and + - = . _ : /")
    }

    /// Thrown by TagRules.check.
    static func invalidTagKeyAwsPrefix(key: String) -> DynamoError {
        .validation("Invalid tag key: \(key). The aws: prefix is reserved for AWS use")
    }

    /// Thrown by TagRules.applyTags.
    static let numberTagsResourceExceedsMaximum = DynamoError.validation("The number of tags on the resource exceeds the maximum allowed limit of \(TagRules.maximumTags)")
}

// MARK: - Transactions/Database+TransactGet.swift

extension EngineMessages {
    /// Thrown by TransactGet (transactGetItems), TransactWrite (plan).
    static let memberHaveLengthLessThan = DynamoError.validation("Member must have length less than or equal to 100")

    /// Thrown by TransactGet (transactGetItems), TransactWrite (plan).
    static let transactionRequestCannotIncludeMultiple = DynamoError.validation("Transaction request cannot include multiple operations on one item")
}

// MARK: - Transactions/Database+TransactWrite.swift

extension EngineMessages {
    /// Thrown by TransactWrite (plan).
    static let aggregateSizeItemsTransactionCannot = DynamoError.validation("The aggregate size of the items in the transaction cannot exceed 4 MB")

    /// Thrown by TransactWrite (readAction).
    static let invalidRequestTransactWriteRequestShouldContain = DynamoError.validation("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request")

    /// Thrown by TransactWrite (readAction).
    static let transactItemsOnlyContainOneCheck = DynamoError.validation("TransactItems can only contain one of Check, Put, Update or Delete")

    /// Thrown by TransactWrite (transactionCanceled).
    static func transactionCancelledPleaseReferCancellation(codes: String, reasons: [CancellationReason]) -> DynamoError {
        DynamoError(.transactionCanceled, "Transaction cancelled, please refer cancellation reasons for specific reasons [\(codes)]", cancellationReasons: reasons)
    }
}

// MARK: - Transactions/IdempotencyTokens.swift

extension EngineMessages {
    /// Thrown by IdempotencyTokens.run.
    static let requestSameClientTokenAlready = DynamoError(.idempotentParameterMismatch, "Request with the same client token has already been used with different parameters")
}
