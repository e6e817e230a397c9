import DynamoAPI

// EngineMessages, continued: table settings: contributor insights, Kinesis destinations, resource policies, warm throughput.

// MARK: - Settings/Database+ContributorInsights.swift

extension EngineMessages {
    /// Thrown by ContributorInsights (listContributorInsights).
    static func invalidNextTokenEchoed(token: String) -> DynamoError {
        .validation("Invalid NextToken: \(token)")
    }
}

// MARK: - Settings/Database+KinesisDestinations.swift

extension EngineMessages {
    /// Thrown by KinesisDestinations (enableKinesisStreamingDestination).
    static let kinesisDestinationAlreadyLive = DynamoError.validation(
        kinesisNotValid + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation.")

    /// Thrown by KinesisDestinations (updateKinesisStreamingDestination).
    static let kinesisUpdateWithoutConfiguration = DynamoError.validation(
        "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values"
    )

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
    static func policyDocumentSizeBytesExceeds(maximumPolicyBytes: Int) -> DynamoError {
        .validation(invalidParameters + "Maximum policy size of \(maximumPolicyBytes) bytes exceeded")
    }

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static let invalidPolicyDocumentPolicyNot = DynamoError.validation(
        invalidParameters + "Invalid policy document: This policy contains invalid Json")

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static let invalidPolicyDocumentMissingRequired = DynamoError.validation(
        invalidParameters + "Invalid policy document: Missing required field Statement")

    /// Thrown by ResourcePolicies (checkPolicyDocument).
    static let invalidPolicyDocumentStatementObject = DynamoError.validation(
        invalidParameters + "Invalid policy document: Statement must be an object or an array")

    /// Thrown by ResourcePolicies (checkPolicyDocument): the JSON text `null`.
    static let invalidPolicyDocumentNull = DynamoError.validation(invalidParameters + "Invalid policy document: This text appears not to be a policy")

    /// Thrown by ResourcePolicies (checkPolicyDocument): `"Statement": []`.
    static let invalidPolicyDocumentStatementEmpty = DynamoError.validation(
        invalidParameters + "Invalid policy document: Could not parse the policy: Statement is empty!")
}

// MARK: - Settings/WarmThroughput.swift

extension EngineMessages {
    /// Thrown by WarmThroughput.applyWarmThroughput.
    static let warmThroughputContainReadUnitsPerSecondWriteUnitsPerSecond = DynamoError.validation(
        invalidParameters + "WarmThroughput must contain ReadUnitsPerSecond or WriteUnitsPerSecond")

    /// Thrown by WarmThroughput.applyWarmThroughput.
    static let requestedReadUnitsPerSecondWarmThroughputTableLower = DynamoError.validation(
        invalidParameters
            + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput, decreasing WarmThroughput is not supported"
    )

    /// Thrown by WarmThroughput.applyWarmThroughput.
    static let requestedWriteUnitsPerSecondWarmThroughputTableLower = DynamoError.validation(
        invalidParameters
            + "Requested WriteUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput, decreasing WarmThroughput is not supported"
    )
}
