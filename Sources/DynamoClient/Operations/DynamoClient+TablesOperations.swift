import DynamoAPI

// One method per operation: tables, time to live, tags, resource policies, Contributor Insights and Kinesis destinations.
// Each is `send(_:)` with the operation's input; see `send(_:)` for what they throw.
extension DynamoClient {
    /// `CreateTable`: Creates a table; it starts in `CREATING` status (see ``waitUntilTableExists(_:delay:maximumAttempts:)``).
    ///
    /// - Parameter input: The request (`CreateTableInput`).
    /// - Returns: The response (`CreateTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func createTable(_ input: CreateTableInput) async throws -> CreateTableOutput {
        try await send(input)
    }

    /// `DeleteTable`: Deletes a table and all of its items.
    ///
    /// - Parameter input: The request (`DeleteTableInput`).
    /// - Returns: The response (`DeleteTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func deleteTable(_ input: DeleteTableInput) async throws -> DeleteTableOutput {
        try await send(input)
    }

    /// `DescribeEndpoints`: Returns the regional endpoint information.
    ///
    /// - Parameter input: The request (`DescribeEndpointsRequest`).
    /// - Returns: The response (`DescribeEndpointsResponse`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeEndpoints(_ input: DescribeEndpointsRequest) async throws -> DescribeEndpointsResponse {
        try await send(input)
    }

    /// `DescribeLimits`: Returns the account's provisioned-capacity quotas in the region.
    ///
    /// - Parameter input: The request (`DescribeLimitsInput`).
    /// - Returns: The response (`DescribeLimitsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeLimits(_ input: DescribeLimitsInput) async throws -> DescribeLimitsOutput {
        try await send(input)
    }

    /// `DescribeTable`: Describes a table: status, key schema, indexes, throughput, stream.
    ///
    /// - Parameter input: The request (`DescribeTableInput`).
    /// - Returns: The response (`DescribeTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeTable(_ input: DescribeTableInput) async throws -> DescribeTableOutput {
        try await send(input)
    }

    /// `DescribeTimeToLive`: Describes the time-to-live setting of a table.
    ///
    /// - Parameter input: The request (`DescribeTimeToLiveInput`).
    /// - Returns: The response (`DescribeTimeToLiveOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeTimeToLive(_ input: DescribeTimeToLiveInput) async throws -> DescribeTimeToLiveOutput {
        try await send(input)
    }

    /// `ListTables`: Lists table names, one page at a time (see ``listTablesPages(_:)``).
    ///
    /// - Parameter input: The request (`ListTablesInput`).
    /// - Returns: The response (`ListTablesOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listTables(_ input: ListTablesInput) async throws -> ListTablesOutput {
        try await send(input)
    }

    /// `ListTagsOfResource`: Lists the tags of a resource.
    ///
    /// - Parameter input: The request (`ListTagsOfResourceInput`).
    /// - Returns: The response (`ListTagsOfResourceOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listTagsOfResource(_ input: ListTagsOfResourceInput) async throws -> ListTagsOfResourceOutput {
        try await send(input)
    }

    /// `TagResource`: Adds tags to a resource.
    ///
    /// - Parameter input: The request (`TagResourceInput`).
    /// - Returns: The response (`EmptyOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func tagResource(_ input: TagResourceInput) async throws -> EmptyOutput {
        try await send(input)
    }

    /// `UntagResource`: Removes tags from a resource.
    ///
    /// - Parameter input: The request (`UntagResourceInput`).
    /// - Returns: The response (`EmptyOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func untagResource(_ input: UntagResourceInput) async throws -> EmptyOutput {
        try await send(input)
    }

    /// `UpdateTable`: Changes a table's throughput, billing mode, indexes or stream settings.
    ///
    /// - Parameter input: The request (`UpdateTableInput`).
    /// - Returns: The response (`UpdateTableOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateTable(_ input: UpdateTableInput) async throws -> UpdateTableOutput {
        try await send(input)
    }

    /// `UpdateTimeToLive`: Turns time to live on or off for a table.
    ///
    /// - Parameter input: The request (`UpdateTimeToLiveInput`).
    /// - Returns: The response (`UpdateTimeToLiveOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateTimeToLive(_ input: UpdateTimeToLiveInput) async throws -> UpdateTimeToLiveOutput {
        try await send(input)
    }

    /// `DeleteResourcePolicy`: Deletes the resource-based policy of a table or stream.
    ///
    /// - Parameter input: The request (`DeleteResourcePolicyInput`).
    /// - Returns: The response (`DeleteResourcePolicyOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func deleteResourcePolicy(_ input: DeleteResourcePolicyInput) async throws -> DeleteResourcePolicyOutput {
        try await send(input)
    }

    /// `GetResourcePolicy`: Returns the resource-based policy of a table or stream.
    ///
    /// - Parameter input: The request (`GetResourcePolicyInput`).
    /// - Returns: The response (`GetResourcePolicyOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func getResourcePolicy(_ input: GetResourcePolicyInput) async throws -> GetResourcePolicyOutput {
        try await send(input)
    }

    /// `PutResourcePolicy`: Attaches a resource-based policy to a table or stream.
    ///
    /// - Parameter input: The request (`PutResourcePolicyInput`).
    /// - Returns: The response (`PutResourcePolicyOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func putResourcePolicy(_ input: PutResourcePolicyInput) async throws -> PutResourcePolicyOutput {
        try await send(input)
    }

    /// `DescribeContributorInsights`: Describes CloudWatch Contributor Insights of a table or index.
    ///
    /// - Parameter input: The request (`DescribeContributorInsightsInput`).
    /// - Returns: The response (`DescribeContributorInsightsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeContributorInsights(_ input: DescribeContributorInsightsInput) async throws -> DescribeContributorInsightsOutput {
        try await send(input)
    }

    /// `ListContributorInsights`: Lists Contributor Insights summaries.
    ///
    /// - Parameter input: The request (`ListContributorInsightsInput`).
    /// - Returns: The response (`ListContributorInsightsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listContributorInsights(_ input: ListContributorInsightsInput) async throws -> ListContributorInsightsOutput {
        try await send(input)
    }

    /// `UpdateContributorInsights`: Turns Contributor Insights on or off.
    ///
    /// - Parameter input: The request (`UpdateContributorInsightsInput`).
    /// - Returns: The response (`UpdateContributorInsightsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateContributorInsights(_ input: UpdateContributorInsightsInput) async throws -> UpdateContributorInsightsOutput {
        try await send(input)
    }

    /// `DescribeKinesisStreamingDestination`: Describes the Kinesis streaming destinations of a table.
    ///
    /// - Parameter input: The request (`DescribeKinesisStreamingDestinationInput`).
    /// - Returns: The response (`DescribeKinesisStreamingDestinationOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeKinesisStreamingDestination(_ input: DescribeKinesisStreamingDestinationInput) async throws
        -> DescribeKinesisStreamingDestinationOutput
    {
        try await send(input)
    }

    /// `DisableKinesisStreamingDestination`: Stops replication to a Kinesis data stream.
    ///
    /// - Parameter input: The request (`KinesisStreamingDestinationInput`, shared by the enable and disable operations).
    /// - Returns: The response (`KinesisStreamingDestinationOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func disableKinesisStreamingDestination(_ input: KinesisStreamingDestinationInput) async throws -> KinesisStreamingDestinationOutput {
        try await send(input, target: DynamoOperation.disableKinesisStreamingDestination.target, output: KinesisStreamingDestinationOutput.self)
    }

    /// `EnableKinesisStreamingDestination`: Starts replication to a Kinesis data stream.
    ///
    /// - Parameter input: The request (`KinesisStreamingDestinationInput`, shared by the enable and disable operations).
    /// - Returns: The response (`KinesisStreamingDestinationOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func enableKinesisStreamingDestination(_ input: KinesisStreamingDestinationInput) async throws -> KinesisStreamingDestinationOutput {
        try await send(input, target: DynamoOperation.enableKinesisStreamingDestination.target, output: KinesisStreamingDestinationOutput.self)
    }

    /// `UpdateKinesisStreamingDestination`: Updates the settings of a Kinesis streaming destination.
    ///
    /// - Parameter input: The request (`UpdateKinesisStreamingDestinationInput`).
    /// - Returns: The response (`UpdateKinesisStreamingDestinationOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateKinesisStreamingDestination(_ input: UpdateKinesisStreamingDestinationInput) async throws
        -> UpdateKinesisStreamingDestinationOutput
    {
        try await send(input)
    }
}
