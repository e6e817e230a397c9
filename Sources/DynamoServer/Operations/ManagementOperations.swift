import DynamoAPI
import DynamoEngine

/// Tagging, Time to Live settings, endpoint discovery and account limits.
extension OperationRows {
    /// TagResource has no output shape: DynamoDB answers with an empty body.
    static let tagResource = OperationRow(
        run: { (input: TagResourceInput, context) in
            try context.database.tagResource(arn: input.resourceArn, tags: input.tags.map { ($0.key, $0.value) })
        }, encode: emptyBody)

    /// No output shape either: an empty body.
    static let untagResource = OperationRow(
        run: { (input: UntagResourceInput, context) in
            try context.database.untagResource(arn: input.resourceArn, keys: input.tagKeys)
        }, encode: emptyBody)

    static let listTagsOfResource = OperationRow(.eventLoop) { (input: ListTagsOfResourceInput, context) in
        let tags = try context.database.listTags(arn: input.resourceArn)
        return ListTagsOfResourceOutput(tags: tags.map { Tag(key: $0.key, value: $0.value) })
    }

    static let describeTimeToLive = OperationRow(.eventLoop) { (input: DescribeTimeToLiveInput, context) in
        _ = try requireTable(input.tableName, in: context.database)
        return try context.database.describeTimeToLive(input)
    }

    static let updateTimeToLive = OperationRow { (input: UpdateTimeToLiveInput, context) in
        _ = try requireTable(input.tableName, in: context.database)
        return try context.database.updateTimeToLive(input)
    }

    static let describeEndpoints = OperationRow(.eventLoop) { (_: DescribeEndpointsRequest, context) in
        DescribeEndpointsResponse(endpoints: [
            Endpoint(address: "dynamodb.\(context.database.region).amazonaws.com", cachePeriodInMinutes: 1440)
        ])
    }

    static let describeLimits = OperationRow(.eventLoop) { (_: DescribeLimitsInput, _) in
        DescribeLimitsOutput(
            accountMaxReadCapacityUnits: 80000, accountMaxWriteCapacityUnits: 80000,
            tableMaxReadCapacityUnits: 40000, tableMaxWriteCapacityUnits: 40000)
    }

    /// The body of an answer without an output shape.
    private static func emptyBody(_: Void) -> [UInt8] { [] }
}
