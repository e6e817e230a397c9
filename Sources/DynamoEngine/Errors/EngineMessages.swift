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
    /// UpdateKinesisStreamingDestination on a destination that is not ACTIVE (DynamoDB names
    /// the table and the stream).
    static func kinesisUpdateNotActive(table: String, streamArn: String) -> String {
        "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state. TableName: \(table), kdsArn: \(streamArn)"
    }
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

// MARK: - Batches/Database+BatchGet.swift

extension EngineMessages {
    /// Thrown by BatchGet (batchGetItem).
    static let expressionAndNonExpressionParameters = DynamoError.validation(
        "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"
    )

    /// Thrown by BatchGet (batchGetItem).
    static let tooManyItemsRequestedBatchGetItem = DynamoError.validation("Too many items requested for the BatchGetItem call")
}

// MARK: - Batches/Database+BatchWrite.swift

extension EngineMessages {
    /// Thrown by BatchWrite (batchWriteItem).
    static let tooManyItemsRequestedBatchWriteItem = DynamoError.validation("Too many items requested for the BatchWriteItem call")

    /// Thrown by BatchWrite (batchWriteItem).
    static let suppliedAttributeValueMoreThanOne = DynamoError.validation(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
}

// MARK: - DynamoEngine.swift

extension EngineMessages {
    /// Thrown by DynamoEngine.init.
    static let engineShutDown = DynamoError(.serviceUnavailable, "The engine has shut down")
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
        .validation(
            "One or more parameter values were invalid: Type mismatch for key \(attributeName) expected: \(typeRawValue) actual: \(typeDescriptor)")
    }

    /// Thrown by KeyValidation.encodeKey.
    static let hashKeyTooLarge = DynamoError.validation(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")

    /// Thrown by KeyValidation.encodeKey.
    static let rangeKeysTooLarge = DynamoError.validation(
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes")

    /// Thrown by KeyValidation.checkNotEmpty.
    static func emptyStringKeyValue(prefix: String, name: String) -> DynamoError {
        .validation("\(prefix)The AttributeValue for a key attribute cannot contain an empty string value. Key: \(name)")
    }

    /// Thrown by KeyValidation.checkNotEmpty.
    static func emptyBinaryKeyValue(prefix: String, name: String) -> DynamoError {
        .validation("\(prefix)The AttributeValue for a key attribute cannot contain an empty binary value. Key: \(name)")
    }

    /// Thrown by KeyValidation.checkNotEmpty.
    static let keyElementMismatch = DynamoError.validation("The provided key element does not match the schema")
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
        .validation(
            "One or more parameter values were invalid: Type mismatch for Index Key \(attributeName) Expected: \(typeRawValue) Actual: \(typeDescriptor) IndexName: \(name)"
        )
    }

    /// Thrown by IndexKeyEncoding.storedKey.
    static func emptyIndexKeyValue(kind: String, name: String, attributeName: String) -> DynamoError {
        .validation(
            "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty \(kind) value. IndexName: \(name), IndexKey: \(attributeName)"
        )
    }

    /// Thrown by `IndexDefinition.storedKey(of:)` (IndexKeyEncoding.swift).
    static func sizeLimitExceededIndexKey(attributeName: String, size: Int, name: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Size limit exceeded for Index Key \(attributeName) Actual Size: \(size) bytes Max Size: \(TableDefinition.maximumPartitionKeyBytes) bytes IndexName: \(name)"
        )
    }

    /// Thrown by `IndexDefinition.storedKey(of:)` (IndexKeyEncoding.swift).
    static let indexRangeKeysTooLarge = DynamoError.validation(
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of \(TableDefinition.maximumSortKeyBytes) bytes"
    )

    /// Thrown by IndexKeyEncoding.updatedIndexKeyError.
    static func updateSetsEmptyIndexKey(kind: String) -> DynamoError {
        .validation(
            "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty \(kind) value."
        )
    }
}

// MARK: - Streams/StreamCatalog.swift

extension EngineMessages {
    /// Thrown by StreamCatalog.startStream.
    static let newStreamNotStored = DynamoError(.internalServerError, "The new stream was not stored")
}

// MARK: - Streams/StoredStreamRecord.swift

extension EngineMessages {
    /// Thrown by StoredStreamRecord.record: a compact stored record that ends early or holds an
    /// impossible field.
    static let streamRecordUnreadable = DynamoError(.internalServerError, "A stored stream record could not be read")
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
    static let invalidRequestTransactWriteRequestShouldContain = DynamoError.validation(
        "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request")

    /// Thrown by TransactWrite (readAction).
    static let transactItemsOnlyContainOneCheck = DynamoError.validation("TransactItems can only contain one of Check, Put, Update or Delete")

    /// Thrown by TransactWrite (transactionCanceled).
    static func transactionCancelledPleaseReferCancellation(codes: String, reasons: [CancellationReason]) -> DynamoError {
        DynamoError(
            .transactionCanceled, "Transaction cancelled, please refer cancellation reasons for specific reasons [\(codes)]",
            cancellationReasons: reasons)
    }
}

// MARK: - Transactions/IdempotencyTokens.swift

extension EngineMessages {
    /// Thrown by IdempotencyTokens.run.
    static let requestSameClientTokenAlready = DynamoError(
        .idempotentParameterMismatch, "Request with the same client token has already been used with different parameters")
}

// MARK: - DynamoDB's 2026 validation rollout

extension EngineMessages {
    /// Examples of the engine's messages DynamoDB's 2026 rollout changed, in both forms: Query's
    /// and Scan's `Select` rules, which `Database.requestValidation` puts in the envelope (the
    /// single-item writes' checks go through it alike), and Scan's sentences that lost their
    /// details. `ErrorWordingCatalogTests` checks each has two forms.
    static var rolloutSamples: [DynamoError] {
        [
            allProjectedAttributesUsedOnly, specifyAttributesToGetProjectionExpressionWhenChoosing,
            duplicateValueAttributeName(duplicate: "a"),
            cannotSpecifyProjectionExpressionWhenChoosing(choosing: "ALL_ATTRIBUTES"),
            cannotSpecifyAttributesToGetWhenChoosing(choosing: "only the Count"),
        ].map(\.inValidationEnvelope) + [
            segmentOutOfRange(segment: 5, total: 5),
            startingKeyInvalidBecause(errorMessage: keyElementMismatch.message),
        ]
    }
}
