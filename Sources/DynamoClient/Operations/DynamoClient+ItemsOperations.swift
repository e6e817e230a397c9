import DynamoAPI

// One method per operation: item reads and writes, queries, scans, vector searches, batches, transactions and PartiQL.
// Each is `send(_:)` with the operation's input; see `send(_:)` for what they throw.
extension DynamoClient {
    /// `BatchExecuteStatement`: Runs up to 25 PartiQL statements as one batch.
    ///
    /// - Parameter input: The request (`BatchExecuteStatementInput`).
    /// - Returns: The response (`BatchExecuteStatementOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func batchExecuteStatement(_ input: BatchExecuteStatementInput) async throws -> BatchExecuteStatementOutput {
        try await send(input)
    }

    /// `BatchGetItem`: Reads up to 100 items from one or more tables. Unprocessed keys come back in `UnprocessedKeys`; ``batchGetAll(_:)`` resubmits them for you.
    ///
    /// - Parameter input: The request (`BatchGetItemInput`).
    /// - Returns: The response (`BatchGetItemOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func batchGetItem(_ input: BatchGetItemInput) async throws -> BatchGetItemOutput {
        try await send(input)
    }

    /// `BatchWriteItem`: Puts or deletes up to 25 items in one or more tables. Unprocessed requests come back in `UnprocessedItems`; ``batchWriteAll(_:)`` resubmits them for you.
    ///
    /// - Parameter input: The request (`BatchWriteItemInput`).
    /// - Returns: The response (`BatchWriteItemOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func batchWriteItem(_ input: BatchWriteItemInput) async throws -> BatchWriteItemOutput {
        try await send(input)
    }

    /// `DeleteItem`: Deletes one item by primary key, optionally under a condition.
    ///
    /// - Parameter input: The request (`DeleteItemInput`).
    /// - Returns: The response (`DeleteItemOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func deleteItem(_ input: DeleteItemInput) async throws -> DeleteItemOutput {
        try await send(input)
    }

    /// `ExecuteStatement`: Runs one PartiQL statement.
    ///
    /// - Parameter input: The request (`ExecuteStatementInput`).
    /// - Returns: The response (`ExecuteStatementOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func executeStatement(_ input: ExecuteStatementInput) async throws -> ExecuteStatementOutput {
        try await send(input)
    }

    /// `ExecuteTransaction`: Runs up to 100 PartiQL statements as one transaction.
    ///
    /// - Parameter input: The request (`ExecuteTransactionInput`).
    /// - Returns: The response (`ExecuteTransactionOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func executeTransaction(_ input: ExecuteTransactionInput) async throws -> ExecuteTransactionOutput {
        try await send(input)
    }

    /// `GetItem`: Reads one item by primary key.
    ///
    /// - Parameter input: The request (`GetItemInput`).
    /// - Returns: The response (`GetItemOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func getItem(_ input: GetItemInput) async throws -> GetItemOutput {
        try await send(input)
    }

    /// `PutItem`: Creates an item or replaces an existing one, optionally under a condition.
    ///
    /// - Parameter input: The request (`PutItemInput`).
    /// - Returns: The response (`PutItemOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func putItem(_ input: PutItemInput) async throws -> PutItemOutput {
        try await send(input)
    }

    /// `Query`: Reads the items of one partition key, in sort-key order, one page at a time (see ``queryPages(_:)``).
    ///
    /// - Parameter input: The request (`QueryInput`).
    /// - Returns: The response (`QueryOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func query(_ input: QueryInput) async throws -> QueryOutput {
        try await send(input)
    }

    /// `Scan`: Reads every item of a table or index, one page at a time (see ``scanPages(_:)``).
    ///
    /// - Parameter input: The request (`ScanInput`).
    /// - Returns: The response (`ScanOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func scan(_ input: ScanInput) async throws -> ScanOutput {
        try await send(input)
    }

    /// `SearchVectors`: The `TopK` items of a vector index nearest a vector, optionally filtered
    /// by a `SearchConditionExpression` over the index's search schema.
    ///
    /// The SDKs send this operation to a vector-search host of its own (`search-dynamodb.<region>`)
    /// unless an endpoint is configured; with an endpoint (LocalDynamo, a proxy) it goes there like
    /// every other operation.
    ///
    /// ```swift
    /// var search = try SearchVectorsInput(tableName: "Notes", indexName: "embedding-index", vector: [0.1, 0.7, 0.2], topK: 10)
    /// search.searchConditionExpression = "#owner = :owner"
    /// search.expressionAttributeNames = ["#owner": "owner"]
    /// search.expressionAttributeValues = [":owner": .s("ada")]
    /// let nearest = try await client.searchVectors(search).searchResults ?? []
    /// ```
    ///
    /// - Parameter input: The request (`SearchVectorsInput`).
    /// - Returns: The response (`SearchVectorsOutput`): the items with their scores, nearest first.
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func searchVectors(_ input: SearchVectorsInput) async throws -> SearchVectorsOutput {
        try await send(input)
    }

    /// `TransactGetItems`: Reads up to 100 items atomically.
    ///
    /// - Parameter input: The request (`TransactGetItemsInput`).
    /// - Returns: The response (`TransactGetItemsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func transactGetItems(_ input: TransactGetItemsInput) async throws -> TransactGetItemsOutput {
        try await send(input)
    }

    /// `TransactWriteItems`: Writes up to 100 items atomically, all or nothing.
    ///
    /// - Parameter input: The request (`TransactWriteItemsInput`).
    /// - Returns: The response (`TransactWriteItemsOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func transactWriteItems(_ input: TransactWriteItemsInput) async throws -> TransactWriteItemsOutput {
        try await send(input)
    }

    /// `UpdateItem`: Edits an item's attributes, creating the item if it does not exist.
    ///
    /// - Parameter input: The request (`UpdateItemInput`).
    /// - Returns: The response (`UpdateItemOutput`).
    /// - Throws: `DynamoError` with DynamoDB's code and message, or a client-side error (see ``send(_:)``).
    public func updateItem(_ input: UpdateItemInput) async throws -> UpdateItemOutput {
        try await send(input)
    }
}
