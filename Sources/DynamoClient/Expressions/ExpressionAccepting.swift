import DynamoAPI

/// A request shape that takes typed ``Expressions`` beside its raw expression strings:
/// `GetItemInput`, `PutItemInput`, `UpdateItemInput`, `DeleteItemInput`, `QueryInput`,
/// `ScanInput`, `KeysAndAttributes`, and the transaction actions `Get`, `Put`, `Update`,
/// `Delete`, `ConditionCheck`.
///
/// ```swift
/// var input = UpdateItemInput(tableName: "Notes", key: ["id": .s("1")])
/// input = try input.with(Expressions(
///     condition: .attributeExists("id"), update: .set("count", .add(1))))
/// ```
public protocol ExpressionAccepting: DynamoShape {
    /// A copy with the expressions rendered into it: each string set, the builder's names and
    /// values merged into the maps (with placeholders the raw expressions do not use).
    ///
    /// - Throws: ``ExpressionBuildError`` for an expression DynamoDB would reject, a kind the
    ///   operation does not take, or a kind the input already has as a raw string.
    func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self
}

/// Where a shape keeps each kind of expression; `nil` for a kind it does not take.
struct ExpressionSlots<Shape> {
    let operation: String
    var keyCondition: WritableKeyPath<Shape, String?>?
    var condition: WritableKeyPath<Shape, String?>?
    var filter: WritableKeyPath<Shape, String?>?
    var update: WritableKeyPath<Shape, String?>?
    var projection: WritableKeyPath<Shape, String?>?
    let names: WritableKeyPath<Shape, [String: String]?>
    var values: WritableKeyPath<Shape, [String: AttributeValue]?>?

    /// `shape` with `expressions` rendered into it (see ``ExpressionAccepting/with(_:)``).
    func apply(_ expressions: Expressions, to shape: Shape) throws(ExpressionBuildError) -> Shape {
        let kinds: [(String, Bool, WritableKeyPath<Shape, String?>?)] = [
            ("KeyConditionExpression", expressions.keyCondition != nil, keyCondition),
            ("ConditionExpression", expressions.condition != nil, condition),
            ("FilterExpression", expressions.filter != nil, filter),
            ("UpdateExpression", expressions.update != nil, update),
            ("ProjectionExpression", expressions.projection != nil, projection),
        ]
        for (kind, given, slot) in kinds where given {
            guard let slot else { throw ExpressionBuildError("\(operation) takes no \(kind)") }
            if shape[keyPath: slot] != nil {
                throw ExpressionBuildError("\(operation) already has a \(kind) string; give it raw or built, not both")
            }
        }
        let existingNames = shape[keyPath: names] ?? [:]
        let existingValues = values.flatMap { shape[keyPath: $0] } ?? [:]
        let rendered = try expressions.rendered(avoiding: Set(existingNames.keys).union(existingValues.keys))
        var result = shape
        let strings = [rendered.keyCondition, rendered.condition, rendered.filter, rendered.update, rendered.projection]
        for ((_, _, slot), text) in zip(kinds, strings) {
            if let slot, let text { result[keyPath: slot] = text }
        }
        if !rendered.names.isEmpty { result[keyPath: names] = existingNames.merging(rendered.names) { old, _ in old } }
        if !rendered.values.isEmpty {
            guard let values else { throw ExpressionBuildError("\(operation) takes no expression attribute values") }
            result[keyPath: values] = existingValues.merging(rendered.values) { old, _ in old }
        }
        return result
    }
}

extension GetItemInput: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a projection.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(operation: "GetItem", projection: \.projectionExpression, names: \.expressionAttributeNames)
            .apply(expressions, to: self)
    }
}

extension PutItemInput: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "PutItem", condition: \.conditionExpression, names: \.expressionAttributeNames,
            values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension DeleteItemInput: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "DeleteItem", condition: \.conditionExpression, names: \.expressionAttributeNames,
            values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension UpdateItemInput: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: an update and a condition.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "UpdateItem", condition: \.conditionExpression, update: \.updateExpression,
            names: \.expressionAttributeNames, values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension QueryInput: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a key condition, a filter and a projection.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "Query", keyCondition: \.keyConditionExpression, filter: \.filterExpression,
            projection: \.projectionExpression, names: \.expressionAttributeNames,
            values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension ScanInput: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a filter and a projection.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(
            operation: "Scan", filter: \.filterExpression, projection: \.projectionExpression,
            names: \.expressionAttributeNames, values: \.expressionAttributeValues
        ).apply(expressions, to: self)
    }
}

extension KeysAndAttributes: ExpressionAccepting {
    /// See ``ExpressionAccepting/with(_:)``: a projection.
    public func with(_ expressions: Expressions) throws(ExpressionBuildError) -> Self {
        try ExpressionSlots(operation: "BatchGetItem", projection: \.projectionExpression, names: \.expressionAttributeNames)
            .apply(expressions, to: self)
    }
}
