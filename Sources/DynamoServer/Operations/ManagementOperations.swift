import DynamoAPI
import DynamoEngine

/// Tagging, Time to Live settings, endpoint discovery and account limits.
enum ManagementOperations {
    static let tagResource: EngineDispatcher.Operation = { body, context in
        let input = try TagResourceInput.decodeRequest(body)
        try context.database.tagResource(arn: input.resourceArn, tags: input.tags.map { ($0.key, $0.value) })
        return [] // TagResource has no output shape: DynamoDB answers with an empty body
    }

    static let untagResource: EngineDispatcher.Operation = { body, context in
        let input = try UntagResourceInput.decodeRequest(body)
        try context.database.untagResource(arn: input.resourceArn, keys: input.tagKeys)
        return [] // no output shape either: an empty body
    }

    static let listTagsOfResource = EngineDispatcher.shaped { (input: ListTagsOfResourceInput, context) in
        let tags = try context.database.listTags(arn: input.resourceArn)
        return ListTagsOfResourceOutput(tags: tags.map { Tag(key: $0.key, value: $0.value) })
    }

    static let describeTimeToLive = EngineDispatcher.shaped { (input: DescribeTimeToLiveInput, context) in
        _ = try TableOperations.requireTable(input.tableName, in: context.database)
        return try context.database.describeTimeToLive(input)
    }

    static let updateTimeToLive = EngineDispatcher.shaped { (input: UpdateTimeToLiveInput, context) in
        _ = try TableOperations.requireTable(input.tableName, in: context.database)
        return try context.database.updateTimeToLive(input)
    }

    static let describeEndpoints = EngineDispatcher.shaped { (_: DescribeEndpointsRequest, context) in
        DescribeEndpointsResponse(endpoints: [
            Endpoint(address: "dynamodb.\(context.database.region).amazonaws.com", cachePeriodInMinutes: 1440)
        ])
    }

    static let describeLimits = EngineDispatcher.shaped { (_: DescribeLimitsInput, _) in
        DescribeLimitsOutput(
            accountMaxReadCapacityUnits: 80000, accountMaxWriteCapacityUnits: 80000,
            tableMaxReadCapacityUnits: 40000, tableMaxWriteCapacityUnits: 40000)
    }
}
