import DynamoAPI

// One method per operation: DynamoDB Streams (endpoint `streams.dynamodb.<region>.amazonaws.com`, target prefix `DynamoDBStreams_20120810`).
// Each is `send(_:)` with the operation's input; see `send(_:)` for what they throw.
extension DynamoClient {
    /// `DescribeStream`: Describes a stream and its shards.
    ///
    /// - Parameter input: The request (`StreamsDescribeStreamInput`).
    /// - Returns: The response (`StreamsDescribeStreamOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func describeStream(_ input: StreamsDescribeStreamInput) async throws -> StreamsDescribeStreamOutput {
        try await send(input)
    }

    /// `GetRecords`: Reads stream records from a shard iterator.
    ///
    /// - Parameter input: The request (`StreamsGetRecordsInput`).
    /// - Returns: The response (`StreamsGetRecordsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func getRecords(_ input: StreamsGetRecordsInput) async throws -> StreamsGetRecordsOutput {
        try await send(input)
    }

    /// `GetShardIterator`: Returns an iterator into a shard of a stream.
    ///
    /// - Parameter input: The request (`StreamsGetShardIteratorInput`).
    /// - Returns: The response (`StreamsGetShardIteratorOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func getShardIterator(_ input: StreamsGetShardIteratorInput) async throws -> StreamsGetShardIteratorOutput {
        try await send(input)
    }

    /// `ListStreams`: Lists streams, one page at a time (see ``listStreamsPages(_:)``).
    ///
    /// - Parameter input: The request (`StreamsListStreamsInput`).
    /// - Returns: The response (`StreamsListStreamsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func listStreams(_ input: StreamsListStreamsInput) async throws -> StreamsListStreamsOutput {
        try await send(input)
    }
}
