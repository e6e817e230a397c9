import DynamoAPI

/// The typed expressions of one request, rendered together so they share one set of
/// `#nN` / `:vN` placeholders.
///
/// ```swift
/// let rendered = try Expressions(
///     keyCondition: .partition("pk", "user#1").sort("sk", .beginsWith("2026-")),
///     filter: ConditionExpression.attribute("status") == "open",
///     projection: ["sk", "status"]).rendered()
/// rendered.keyCondition   // "#n0 = :v0 AND begins_with(#n1, :v1)"
/// rendered.names          // ["#n0": "pk", "#n1": "sk", "#n2": "status"]
/// ```
///
/// Item operations take them beside raw strings: `client.query(input, keyCondition: …)`, or
/// `input.with(expressions)` for any shape that accepts expressions (``ExpressionAccepting``).
public struct Expressions: Sendable {
    /// The `KeyConditionExpression` (Query).
    public var keyCondition: KeyConditionExpression?
    /// The `ConditionExpression` (writes and transaction actions).
    public var condition: ConditionExpression?
    /// The `FilterExpression` (Query, Scan).
    public var filter: ConditionExpression?
    /// The `UpdateExpression` (UpdateItem, a transaction's Update).
    public var update: UpdateExpression?
    /// The `ProjectionExpression` (reads).
    public var projection: ProjectionExpression?

    /// The expressions of one request; leave out what the request does not use.
    public init(
        keyCondition: KeyConditionExpression? = nil, condition: ConditionExpression? = nil,
        filter: ConditionExpression? = nil, update: UpdateExpression? = nil, projection: ProjectionExpression? = nil
    ) {
        self.keyCondition = keyCondition
        self.condition = condition
        self.filter = filter
        self.update = update
        self.projection = projection
    }

    /// Renders every expression given, in the order key condition, update, condition, filter,
    /// projection, with shared placeholders.
    ///
    /// - Parameter taken: Placeholders the request already uses (its raw expressions'), which
    ///   the builder's placeholders avoid.
    /// - Returns: The strings and the name and value maps, holding exactly the placeholders
    ///   the strings use.
    /// - Throws: ``ExpressionBuildError`` for what DynamoDB would reject.
    public func rendered(avoiding taken: Set<String> = []) throws(ExpressionBuildError) -> RenderedExpressions {
        var renderer = ExpressionRenderer(avoiding: taken)
        var result = RenderedExpressions()
        result.keyCondition = try keyCondition.map { (key) throws(ExpressionBuildError) in try key.render(&renderer) }
        result.update = try update.map { (update) throws(ExpressionBuildError) in try update.render(&renderer) }
        result.condition = try condition.map { (condition) throws(ExpressionBuildError) in
            try condition.render(&renderer, kind: "ConditionExpression")
        }
        result.filter = try filter.map { (filter) throws(ExpressionBuildError) in try filter.render(&renderer, kind: "FilterExpression") }
        result.projection = try projection.map { (projection) throws(ExpressionBuildError) in try projection.render(&renderer) }
        result.names = renderer.names
        result.values = renderer.values
        return result
    }
}

/// Rendered expressions: DynamoDB's strings and the `ExpressionAttributeNames` /
/// `ExpressionAttributeValues` maps they use.
public struct RenderedExpressions: Sendable, Hashable {
    /// The `KeyConditionExpression`.
    public var keyCondition: String?
    /// The `ConditionExpression`.
    public var condition: String?
    /// The `FilterExpression`.
    public var filter: String?
    /// The `UpdateExpression`.
    public var update: String?
    /// The `ProjectionExpression`.
    public var projection: String?
    /// Placeholder (`#n0`) → attribute name.
    public var names: [String: String] = [:]
    /// Placeholder (`:v0`) → value.
    public var values: [String: AttributeValue] = [:]
}

extension ConditionExpression {
    /// Renders the condition alone, as a `ConditionExpression` or `FilterExpression`.
    ///
    /// ```swift
    /// let rendered = try (ConditionExpression.attribute("status") == "open").rendered()
    /// // rendered.condition == "#n0 = :v0", names ["#n0": "status"], values [":v0": .s("open")]
    /// ```
    public func rendered() throws(ExpressionBuildError) -> RenderedExpressions {
        try Expressions(condition: self).rendered()
    }
}

extension UpdateExpression {
    /// Renders the update alone.
    public func rendered() throws(ExpressionBuildError) -> RenderedExpressions { try Expressions(update: self).rendered() }
}

extension KeyConditionExpression {
    /// Renders the key condition alone.
    public func rendered() throws(ExpressionBuildError) -> RenderedExpressions { try Expressions(keyCondition: self).rendered() }
}

extension ProjectionExpression {
    /// Renders the projection alone.
    public func rendered() throws(ExpressionBuildError) -> RenderedExpressions { try Expressions(projection: self).rendered() }
}
