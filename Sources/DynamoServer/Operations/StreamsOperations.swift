import DynamoAPI
import DynamoEngine

/// The DynamoDB Streams operations (`X-Amz-Target: DynamoDBStreams_20120810.*`), on the same
/// port as DynamoDB's and signed for the service name `dynamodb`.
enum StreamsOperations {
    static let listStreams = EngineDispatcher.shaped { (input: StreamsListStreamsInput, context) in
        try context.database.listStreams(input)
    }

    static let describeStream = EngineDispatcher.shaped { (input: StreamsDescribeStreamInput, context) in
        try context.database.describeStream(input)
    }

    static let getShardIterator = EngineDispatcher.shaped { (input: StreamsGetShardIteratorInput, context) in
        try context.database.getShardIterator(input)
    }

    static let getRecords = EngineDispatcher.shaped { (input: StreamsGetRecordsInput, context) in
        try context.database.getRecords(input)
    }
}
