import DynamoAPI

// Item operations with typed expressions: each renders the expressions into the input (beside
// any raw strings it has, see `ExpressionAccepting`) and sends it.
extension DynamoClient {
    /// `GetItem` with a typed projection.
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func getItem(_ input: GetItemInput, projection: ProjectionExpression) async throws -> GetItemOutput {
        try await send(input.with(Expressions(projection: projection)))
    }

    /// `PutItem` under a typed condition.
    ///
    /// ```swift
    /// _ = try await client.putItem(PutItemInput(tableName: "Notes", item: item), condition: .attributeNotExists("id"))
    /// ```
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func putItem(_ input: PutItemInput, condition: ConditionExpression) async throws -> PutItemOutput {
        try await send(input.with(Expressions(condition: condition)))
    }

    /// `DeleteItem` under a typed condition.
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func deleteItem(_ input: DeleteItemInput, condition: ConditionExpression) async throws -> DeleteItemOutput {
        try await send(input.with(Expressions(condition: condition)))
    }

    /// `UpdateItem` with a typed update and an optional typed condition.
    ///
    /// ```swift
    /// _ = try await client.updateItem(UpdateItemInput(tableName: "Notes", key: key),
    ///                                 update: .set("count", .add(1)).remove("draft"),
    ///                                 condition: .attributeExists("id"))
    /// ```
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func updateItem(
        _ input: UpdateItemInput, update: UpdateExpression, condition: ConditionExpression? = nil
    ) async throws -> UpdateItemOutput {
        try await send(input.with(Expressions(condition: condition, update: update)))
    }

    /// `Query` with a typed key condition and optional filter and projection.
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func query(
        _ input: QueryInput, keyCondition: KeyConditionExpression, filter: ConditionExpression? = nil,
        projection: ProjectionExpression? = nil
    ) async throws -> QueryOutput {
        try await send(input.with(Expressions(keyCondition: keyCondition, filter: filter, projection: projection)))
    }

    /// `Scan` with an optional typed filter and projection.
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func scan(
        _ input: ScanInput, filter: ConditionExpression?, projection: ProjectionExpression? = nil
    ) async throws -> ScanOutput {
        try await send(input.with(Expressions(filter: filter, projection: projection)))
    }

    /// Any operation whose input accepts typed expressions (``ExpressionAccepting``).
    ///
    /// - Throws: ``ExpressionBuildError`` before sending; otherwise what ``send(_:)`` throws.
    public func send<Input: DynamoOperationInput & ExpressionAccepting>(
        _ input: Input, expressions: Expressions
    ) async throws -> Input.Output {
        try await send(input.with(expressions))
    }
}
