import DynamoAPI
import DynamoEngine

/// The operations' rows, one per operation of the model (`DynamoOperation`), reached through
/// the generated switch of `OperationTable.swift`; the family files (`ItemOperations.swift`,
/// `TableOperations.swift` …) hold them.
enum OperationRows {
    /// Operations of the model this server does not answer yet: their rows exist because the
    /// generated switch needs one, and a request naming them is answered
    /// `UnknownOperationException` before its body is read, as an operation outside the model is.
    /// `scripts/compatibility.py` reads this list; remove an operation in the change that
    /// implements it.
    static let notYetAnswered: Set<DynamoOperation> = []

    /// The row of an operation in ``notYetAnswered``.
    static func notYet<Input: DynamoShape, Output: DynamoShape>(_: Input.Type, _: Output.Type) -> OperationRow<Input, Output> {
        OperationRow(run: { _, _ in throw DynamoError(.unknownOperation) })
    }

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
