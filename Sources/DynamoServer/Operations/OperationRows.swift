import DynamoAPI
import DynamoEngine

/// The operations' rows, one per operation of the model (`DynamoOperation`), reached through
/// the generated switch of `OperationTable.swift`; the family files (`ItemOperations.swift`,
/// `TableOperations.swift` …) hold them.
enum OperationRows {
    /// The DynamoDB Streams operations (`X-Amz-Target: DynamoDBStreams_20120810.*`), on the
    /// same port as DynamoDB's and signed for the service name `dynamodb`; all on the pool.
    enum Streams {
        static let listStreams = OperationRow { (input: StreamsListStreamsInput, context) in
            try context.database.listStreams(input)
        }

        static let describeStream = OperationRow { (input: StreamsDescribeStreamInput, context) in
            try context.database.describeStream(input)
        }

        static let getShardIterator = OperationRow { (input: StreamsGetShardIteratorInput, context) in
            try context.database.getShardIterator(input)
        }

        static let getRecords = OperationRow { (input: StreamsGetRecordsInput, context) in
            try context.database.getRecords(input)
        }
    }
}
