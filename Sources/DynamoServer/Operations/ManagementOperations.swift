import DynamoAPI
import DynamoEngine

/// Tagging, Time to Live settings, endpoint discovery and account limits.
enum ManagementOperations {
    static let tagResource: EngineDispatcher.Operation = { body, context in
        let input = try TagResourceInput.decodeRequest(body)
        try context.database.tagResource(arn: input.resourceArn, tags: input.tags.map { ($0.key, $0.value) })
        return Array("{}".utf8)
    }

    static let untagResource: EngineDispatcher.Operation = { body, context in
        let input = try UntagResourceInput.decodeRequest(body)
        try context.database.untagResource(arn: input.resourceArn, keys: input.tagKeys)
        return Array("{}".utf8)
    }

    static let listTagsOfResource: EngineDispatcher.Operation = { body, context in
        let input = try ListTagsOfResourceInput.decodeRequest(body)
        let tags = try context.database.listTags(arn: input.resourceArn)
        return ListTagsOfResourceOutput(tags: tags.map { Tag(key: $0.key, value: $0.value) }).jsonBytes
    }

    static let describeTimeToLive: EngineDispatcher.Operation = { body, context in
        let input = try DescribeTimeToLiveInput.decodeRequest(body)
        let definition = try TableOperations.requireTable(input.tableName, in: context.database)
        let description = TimeToLiveDescription(
            timeToLiveStatus: .init(rawValue: definition.ttlEnabled ? "ENABLED" : "DISABLED"),
            attributeName: definition.ttlEnabled ? definition.ttlAttribute : nil)
        return DescribeTimeToLiveOutput(timeToLiveDescription: description).jsonBytes
    }

    static let updateTimeToLive: EngineDispatcher.Operation = { body, context in
        let input = try UpdateTimeToLiveInput.decodeRequest(body)
        _ = try TableOperations.requireTable(input.tableName, in: context.database)
        let specification = input.timeToLiveSpecification
        try context.database.updateTimeToLive(table: input.tableName, enabled: specification.enabled,
                                              attributeName: specification.attributeName)
        return UpdateTimeToLiveOutput(timeToLiveSpecification: specification).jsonBytes
    }

    static let describeEndpoints: EngineDispatcher.Operation = { body, context in
        _ = try DescribeEndpointsRequest.decodeRequest(body)
        return DescribeEndpointsResponse(endpoints: [
            Endpoint(address: "dynamodb.\(context.database.region).amazonaws.com", cachePeriodInMinutes: 1440),
        ]).jsonBytes
    }

    static let describeLimits: EngineDispatcher.Operation = { body, _ in
        _ = try DescribeLimitsInput.decodeRequest(body)
        return DescribeLimitsOutput(accountMaxReadCapacityUnits: 80000, accountMaxWriteCapacityUnits: 80000,
                                    tableMaxReadCapacityUnits: 40000, tableMaxWriteCapacityUnits: 40000).jsonBytes
    }
}
