import DynamoAPI
import DynamoEngine

/// Resource policies, Contributor Insights and Kinesis streaming destinations (state only).
extension OperationRows {
    static let putResourcePolicy = OperationRow { (input: PutResourcePolicyInput, context) in
        try context.database.putResourcePolicy(input)
    }

    static let getResourcePolicy = OperationRow { (input: GetResourcePolicyInput, context) in
        try context.database.getResourcePolicy(input)
    }

    static let deleteResourcePolicy = OperationRow { (input: DeleteResourcePolicyInput, context) in
        try context.database.deleteResourcePolicy(input)
    }

    static let describeContributorInsights = OperationRow { (input: DescribeContributorInsightsInput, context) in
        try naming(input.tableName) { try context.database.describeContributorInsights(input) }
    }

    static let updateContributorInsights = OperationRow { (input: UpdateContributorInsightsInput, context) in
        try naming(input.tableName) { try context.database.updateContributorInsights(input) }
    }

    static let listContributorInsights = OperationRow { (input: ListContributorInsightsInput, context) in
        try naming(input.tableName ?? "") { try context.database.listContributorInsights(input) }
    }

    static let enableKinesisStreamingDestination = OperationRow { (input: KinesisStreamingDestinationInput, context) in
        try naming(input.tableName) { try context.database.enableKinesisStreamingDestination(input) }
    }

    static let disableKinesisStreamingDestination = OperationRow { (input: KinesisStreamingDestinationInput, context) in
        try naming(input.tableName) { try context.database.disableKinesisStreamingDestination(input) }
    }

    static let updateKinesisStreamingDestination = OperationRow { (input: UpdateKinesisStreamingDestinationInput, context) in
        try naming(input.tableName) { try context.database.updateKinesisStreamingDestination(input) }
    }

    static let describeKinesisStreamingDestination = OperationRow { (input: DescribeKinesisStreamingDestinationInput, context) in
        try naming(input.tableName) { try context.database.describeKinesisStreamingDestination(input) }
    }
}
