import DynamoAPI

// EngineMessages, continued: the table operations' sentences: CreateTable, UpdateTable (indexes included), DeleteTable, tags and the table validation rules.

// MARK: - Tables/Database+CreateTable.swift

extension EngineMessages {
    /// Thrown by CreateTable (validatedDefinition).
    static let keySchemaSpecified = DynamoError.validation(invalidParameters + "KeySchema must be specified")

    /// Thrown by CreateTable (validatedDefinition).
    static func keySchemaTooLong(rendered: [String]) -> DynamoError {
        .lengthViolation(at: "keySchema", value: "[\(rendered.joined(separator: ", "))]", maximum: 2)
    }

    /// Thrown by CreateTable (validatedDefinition).
    static let numberAttributesKeySchemaDoesNot = DynamoError.validation(
        invalidParameters + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")

    /// Thrown by CreateTable (validatedDefinition).
    static let listLocalSecondaryIndexesEmpty = DynamoError.validation(invalidParameters + "List of LocalSecondaryIndexes is empty")

    /// Thrown by CreateTable (validatedDefinition).
    static let tableKeySchemaDoesNotHave = DynamoError.validation(
        invalidParameters + "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")

    /// Thrown by CreateTable (validatedDefinition).
    static func localIndexWithoutRangeKey(indexName: String) -> DynamoError {
        .validation(invalidParameters + "Index KeySchema does not have a range key for index: \(indexName)")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static func localIndexHashKeyDiffers(indexName: String, hashName: String, partitionKeyName: String) -> DynamoError {
        .validation(
            invalidParameters
                + "Index KeySchema does not have the same leading hash key as table KeySchema for index: \(indexName). index hash key: \(hashName), table hash key: \(partitionKeyName)"
        )
    }

    /// Thrown by CreateTable (validatedDefinition).
    static func duplicateIndexName(indexName: String) -> DynamoError {
        .validation(invalidParameters + "Duplicate index name: \(indexName)")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static let numberLocalSecondaryIndexesExceedsPerTable = DynamoError.validation(
        invalidParameters + "Number of LocalSecondaryIndexes exceeds per-table limit of 5")

    /// Thrown by CreateTable (validatedDefinition).
    static let listGlobalSecondaryIndexesEmpty = DynamoError.validation(invalidParameters + "List of GlobalSecondaryIndexes is empty")

    /// Thrown by CreateTable (validatedDefinition).
    static let globalSecondaryIndexCountExceedsPerTable = DynamoError.validation(
        invalidParameters + "GlobalSecondaryIndex count exceeds the per-table limit of 20")

    /// Thrown by CreateTable (validatedDefinition).
    static func duplicateAttributeNameAttributeDefinitions(name: String) -> DynamoError {
        .validation("Attribute Name is duplicated: \(name)")
    }

    /// Thrown by CreateTable (validatedDefinition).
    static let tableBeingCreatedStreamEnabled = DynamoError.validation(
        invalidParameters + "Table is being created with a stream enabled, UpdateViewType is required")

    /// Thrown by CreateTable (validatedDefinition).
    static let tableBeingCreatedStreamDisabled = DynamoError.validation(
        invalidParameters + "Table is being created with a stream disabled, UpdateViewType should not be specified")
}

// MARK: - Tables/Database+Tables.swift

extension EngineMessages {
    /// Thrown by Tables (deleteTable).
    static let resourceCannotDeletedAsIt = DynamoError(
        .validation, "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")

    /// Thrown by Tables (deleteTable).
    static let deleteTableWhileIndexesChange = DynamoError(
        .resourceInUse,
        "Attempt to change a resource which is still in use: Cannot delete table while indexes are being created, updated, or deleted.")
}

// MARK: - Tables/Database+Tags.swift

extension EngineMessages {
    /// Thrown by Tags (taggedTable).
    static func invalidTableArnInvalidResourceArnProvided(arn: String) -> DynamoError {
        .validation("Invalid TableArn: Invalid ResourceArn provided as input \(arn)")
    }

    /// Thrown by Tags (taggedTable).
    static func resourceArnNotFound(arn: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: ResourceArn: \(arn) not found")
    }
}

// MARK: - Tables/Database+UpdateTable.swift

extension EngineMessages {
    /// Thrown by UpdateTable (updateTable).
    static let atLeastOneProvisionedThroughputBillingMode = DynamoError.validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required"
    )

    /// Thrown by UpdateTable (updateTable).
    static let listGlobalSecondaryIndexUpdatesEmpty = DynamoError.validation(invalidParameters + "List of GlobalSecondaryIndexUpdates is empty")

    /// Thrown by UpdateTable (updateTable).
    static let provisionedThroughputSpecifiedWhenBillingModeProvisioned = DynamoError.validation(
        invalidParameters + "ProvisionedThroughput must be specified when BillingMode is PROVISIONED")

    /// Thrown by UpdateTable (updateTable).
    static func throughputUnchanged(currentRead: Int, requestedRead: Int, currentWrite: Int, requestedWrite: Int) -> DynamoError {
        .validation(
            "The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: \(currentRead). Requested ReadCapacityUnits: \(requestedRead). Current WriteCapacityUnits provisioned for the table: \(currentWrite). Requested WriteCapacityUnits: \(requestedWrite). Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
        )
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
    static let ifStreamBeingDisabledThen = DynamoError.validation(
        invalidParameters + "If stream is being disabled, then UpdateViewType must not be specified")

    /// Thrown by UpdateTable (updateTable).
    static func tableNoStreamDisableTableName(definitionName: String) -> DynamoError {
        .validation("Table has no stream to disable: TableName: \(definitionName)")
    }
}

// MARK: - Tables/IndexUpdates.swift

extension EngineMessages {
    /// Thrown by IndexUpdates..
    static let oneOnlineIndexChangeAtATime = DynamoError(
        .limitExceeded, "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")

    /// Thrown by IndexUpdates.checkCombination.
    static let indexChangeWithThroughputChange = DynamoError.validation(
        invalidParameters + "You cannot create or delete index while updating table IOPS")

    /// Thrown by IndexUpdates.checkCombination.
    static let indexChangeWithStreamChange = DynamoError.validation(
        invalidParameters + "You cannot create or delete index while changing stream status")

    /// Thrown by IndexUpdates.checkCombination.
    static let deletionProtectionModificationOnlyOperationRequest = DynamoError.validation(
        invalidParameters + "DeletionProtection modification must be the only operation in the request")

    /// Thrown by IndexUpdates.checkCombination.
    static let serverSideEncryptionModificationOnly = DynamoError.validation(
        invalidParameters + "Server-Side Encryption modification must be the only operation in the request")

    /// Thrown by IndexUpdates.checkCombination.
    static let tableClassModificationOnlyOperationRequest = DynamoError.validation(
        invalidParameters + "TableClass modification must be the only operation in the request")

    /// Thrown by IndexUpdates.apply.
    static let oneGlobalSecondaryIndexUpdateUpdateGlobalSecondaryIndexUpdateCreate = DynamoError.validation(
        invalidParameters
            + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")

    /// Thrown by IndexUpdates.apply.
    static let oneActionPerIndexUpdate = DynamoError.validation(
        invalidParameters + "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object")

    /// Thrown by IndexUpdates.apply.
    static func twoUpdatesForOneIndex(actions: [String]) -> DynamoError {
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
        DynamoError(
            .limitExceeded, "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of \(maximumGlobalIndexes)")
    }

    /// Thrown by IndexUpdates.globalIndexPosition.
    static func cannotIndexThatNotGlobalSecondaryIndex(verb: String, name: String) -> DynamoError {
        .validation("Cannot \(verb) an index that is not a GlobalSecondaryIndex: \(name)")
    }

    /// Thrown by IndexUpdates.globalIndexPosition.
    static func indexNotFoundForTable(name: String, definitionName: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Index \(name) for table \(definitionName)")
    }

    /// Thrown by IndexUpdates.globalIndexPosition.
    static func indexBeingDeleted(definitionName: String, name: String) -> DynamoError {
        DynamoError(
            .resourceInUse, "Attempt to change a resource which is still in use: Index is being deleted. Table: \(definitionName) Index: \(name)")
    }

    /// Thrown by IndexUpdates.updateThroughput.
    static func onlyUpdatesIndexWhenTableThroughputMode(indexName: String) -> DynamoError {
        .validation(
            invalidParameters
                + "The only Updates for index: \(indexName) when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput")
    }

    /// Thrown by IndexUpdates.updateThroughput.
    static func indexThroughputUnchanged(name: String, currentRead: Int, requestedRead: Int, currentWrite: Int, requestedWrite: Int) -> DynamoError {
        .validation(
            "The provisioned throughput for the index \(name) will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for index \(name): \(currentRead). Requested ReadCapacityUnits: \(requestedRead). Current WriteCapacityUnits provisioned for index \(name): \(currentWrite). Requested WriteCapacityUnits: \(requestedWrite). Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
        )
    }
}

// MARK: - Tables/TableValidation.swift

extension EngineMessages {
    /// Thrown by TableValidation.checkBilling.
    static let readCapacityUnitsWriteCapacityUnitsBothSpecifiedWhen = DynamoError.validation(
        invalidParameters + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")

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
        .validation(
            invalidParameters
                + "Some index key attributes are not defined in AttributeDefinitions. Keys: [\(keyNames.joined(separator: ", "))], AttributeDefinitions: [\(definedNames.joined(separator: ", "))]"
        )
    }

    /// Thrown by TableValidation.resolveKeySchema.
    static let bothHashKeyRangeKey = DynamoError.validation("Both the Hash Key and the Range Key element in the KeySchema have the same name")

    /// Thrown by TableValidation.resolveKeySchema, TableValidation.resolveGlobalIndexKeySchema.
    static let invalidKeySchemaFirstKeySchemaElementNot = DynamoError.validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type")

    /// Thrown by TableValidation.resolveKeySchema.
    static let invalidKeySchemaSecondKeySchemaElementNot = DynamoError.validation(
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let keySchemaContainsMultipleKeyAttributes = DynamoError.validation("The KeySchema contains multiple key attributes with the same name")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let allHashKeyAttributesPrecede = DynamoError.validation(
        invalidParameters + "All HASH key attributes must precede RANGE key attributes in the KeySchema")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let tooManyHashKeys = DynamoError.validation(invalidParameters + "The KeySchema exceeds the maximum allowed number of HASH key attributes")

    /// Thrown by TableValidation.resolveGlobalIndexKeySchema.
    static let tooManyRangeKeys = DynamoError.validation(
        invalidParameters + "The KeySchema exceeds the maximum allowed number of RANGE key attributes")

    /// Thrown by TableValidation.checkProjection.
    static let unknownProjectionTypeNull = DynamoError.validation(invalidParameters + "Unknown ProjectionType: null")

    /// Thrown by TableValidation.checkProjection.
    static func projectionTypeButNonKeyAttributesSpecified(type: ProjectionType) -> DynamoError {
        .validation(invalidParameters + "ProjectionType is \(type), but NonKeyAttributes is specified")
    }

    /// Thrown by TableValidation.checkProjection (a name twice in NonKeyAttributes).
    static func duplicateNonKeyAttribute(name: String) -> DynamoError {
        .validation(invalidParameters + "Duplicate element in NonKeyAttributes: \(name)")
    }

    /// Thrown by TableValidation.checkOnDemand (CreateTable, UpdateTable).
    static func onDemandOutsideRange(member: String) -> DynamoError {
        .validation(invalidParameters + "Requested \(member) for OnDemandThroughput for table is outside of valid range")
    }

    /// Thrown by TableValidation.checkOnDemand (RestoreTableFromBackup, RestoreTableToPointInTime).
    static func restoreOnDemandOutsideRange(member: String) -> DynamoError {
        .validation("Invalid Request: Requested \(member) for OnDemandThroughput is outside of valid range")
    }

    /// Thrown by TableValidation.checkTableClass (CreateTable, UpdateTable).
    static let invalidTableClass = DynamoError.validation(
        "Invalid table-class parameter provided. Please try again with a valid table-class value: [STANDARD, STANDARD_INFREQUENT_ACCESS].")

    /// Thrown by TableValidation.checkEncryption.
    static let sseTypeWhenDisabled = DynamoError.validation(invalidParameters + "SSEType can not be specified if Enabled is false")

    /// Thrown by TableValidation.checkEncryption.
    static let kmsKeyWhenDisabled = DynamoError.validation(invalidParameters + "KMSMasterKeyId can not be specified if Enabled is false")

    /// Thrown by TableValidation.checkEncryption.
    static let kmsKeyNeedsKMSType = DynamoError.validation(invalidParameters + "SSEType KMS is required if KMSMasterKeyId is specified")

    /// Thrown by TableValidation.checkEncryption.
    static let sseTypeAES256 = DynamoError.validation(invalidParameters + "SSEType AES256 is not supported")

    /// Thrown by TableValidation.checkProjection.
    static let projectionTypeIncludeButNonKeyAttributesNot = DynamoError.validation(
        invalidParameters + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
}

// MARK: - Tables/TagRules.swift

extension EngineMessages {
    /// Thrown by TagRules.check (a key outside the allowed characters).
    static func tagKeyInvalid(key: String) -> DynamoError {
        .validation("The Tag Key provided is invalid, Key: \(key)")
    }

    /// Thrown by TagRules.check (a value outside the allowed characters).
    static func tagValueInvalid(value: String) -> DynamoError {
        .validation("The Tag Value provided is invalid, Value: \(value)")
    }

    /// Thrown by TagRules.checkKey (the reserved `aws:` prefix, any case).
    static func tagKeyAwsPrefix(key: String) -> DynamoError {
        .validation("Tag Key cannot be prefixed with aws:, Key: \(key)")
    }

    /// Thrown by TagRules.checkDistinct (one key twice in a request).
    static func duplicateTagKey(key: String) -> DynamoError {
        .validation("Duplicate Tag Keys provided as input: Duplicate Tag Key found \(key)")
    }

    /// Thrown by TagRules (more than 50 tags once applied, or more than 50 keys to remove).
    static let tooManyTags = DynamoError.validation("Number of Tags exceed the current limit for the provided ResourceArn")

    /// Thrown by TagResource with an empty tag list (DynamoDB's own spelling of "At least").
    static let noTagsGiven = DynamoError.validation("Atleast one Tag needs to be provided as Input.")

    /// Thrown by UntagResource with an empty key list (DynamoDB's own spelling of "At least").
    static let noTagKeysGiven = DynamoError.validation("Atleast one Tag Key needs to be provided as Input.")
}
