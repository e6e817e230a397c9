import DynamoAPI

extension Get: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a projection.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(operation: "TransactGetItems Get", projection: \.projectionExpression, names: \.expressionAttributeNames)
            .apply(expressions, to: self)
    }
}

extension Put: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "TransactWriteItems Put", condition: \.conditionExpression,
            names: \.expressionAttributeNames, values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension Delete: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "TransactWriteItems Delete", condition: \.conditionExpression,
            names: \.expressionAttributeNames, values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension Update: ExpressionAccepting {
    /// An `Update` action built from typed expressions.
    ///
    /// ```swift
    /// let action = try Update(key: ["id": .s("1")], tableName: "Notes", update: .set("count", .add(1)),
    ///                         condition: .attributeExists("id"))
    /// _ = try await client.transactWriteItems(TransactWriteItemsInput(transactItems: [TransactWriteItem(update: action)]))
    /// ```
    ///
    /// - Throws: ``ExpressionBuildError`` for what DynamoDB would reject.
    public init(key: Item, tableName: String, update: UpdateExpression, condition: ConditionExpression? = nil) throws(ExpressionBuildError) {
        self = try Update(key: key, updateExpression: "", tableName: tableName)
            .with(Expressions(condition: condition, update: update))
    }

    /// The required `UpdateExpression`, `nil` while it is empty.
    var updateSlot: String? {
        get { updateExpression.isEmpty ? nil : updateExpression }
        set { updateExpression = newValue ?? "" }
    }

    /// See ``ExpressionAccepting/with(_:)``: an update and a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "TransactWriteItems Update", condition: \.conditionExpression, update: \.updateSlot,
            names: \.expressionAttributeNames, values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension ConditionCheck: ExpressionAccepting {
    /// A `ConditionCheck` action built from a typed condition.
    ///
    /// - Throws: ``ExpressionBuildError`` for what DynamoDB would reject.
    public init(key: Item, tableName: String, condition: ConditionExpression) throws(ExpressionBuildError) {
        self = try ConditionCheck(key: key, tableName: tableName, conditionExpression: "").with(Expressions(condition: condition))
    }

    /// The required `ConditionExpression`, `nil` while it is empty.
    var conditionSlot: String? {
        get { conditionExpression.isEmpty ? nil : conditionExpression }
        set { conditionExpression = newValue ?? "" }
    }

    /// See ``ExpressionAccepting/with(_:)``: a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "TransactWriteItems ConditionCheck", condition: \.conditionSlot,
            names: \.expressionAttributeNames, values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}
