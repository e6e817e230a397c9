import DynamoAPI
import DynamoEngine

/// Resource policies, Contributor Insights and Kinesis streaming destinations (state only).
enum SettingsOperations {
    static let rows: [String: EngineDispatcher.Operation] = [
        "PutResourcePolicy": EngineDispatcher.shaped { (input: PutResourcePolicyInput, context) in
            try context.database.putResourcePolicy(input)
        },
        "GetResourcePolicy": EngineDispatcher.shaped { (input: GetResourcePolicyInput, context) in
            try context.database.getResourcePolicy(input)
        },
        "DeleteResourcePolicy": EngineDispatcher.shaped { (input: DeleteResourcePolicyInput, context) in
            try context.database.deleteResourcePolicy(input)
        },
        "DescribeContributorInsights": EngineDispatcher.shaped { (input: DescribeContributorInsightsInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.describeContributorInsights(input) }
        },
        "UpdateContributorInsights": EngineDispatcher.shaped { (input: UpdateContributorInsightsInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.updateContributorInsights(input) }
        },
        "ListContributorInsights": EngineDispatcher.shaped { (input: ListContributorInsightsInput, context) in
            try TableOperations.naming(input.tableName ?? "") { try context.database.listContributorInsights(input) }
        },
        "EnableKinesisStreamingDestination": EngineDispatcher.shaped { (input: KinesisStreamingDestinationInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.enableKinesisStreamingDestination(input) }
        },
        "DisableKinesisStreamingDestination": EngineDispatcher.shaped { (input: KinesisStreamingDestinationInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.disableKinesisStreamingDestination(input) }
        },
        "UpdateKinesisStreamingDestination": EngineDispatcher.shaped { (input: UpdateKinesisStreamingDestinationInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.updateKinesisStreamingDestination(input) }
        },
        "DescribeKinesisStreamingDestination": EngineDispatcher.shaped { (input: DescribeKinesisStreamingDestinationInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.describeKinesisStreamingDestination(input) }
        },
    ]
}
