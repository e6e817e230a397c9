import DynamoAPI

/// The operations that take expressions, with the parameters each one takes in DynamoDB's
/// order (the order its messages list them in).
public enum ExpressionOperation: Sendable, Hashable {
    case getItem, putItem, deleteItem, updateItem, query, scan, searchVectors

    /// The expression parameters, in the order DynamoDB names them in messages.
    var expressionParameters: [ExpressionKind] {
        switch self {
        case .getItem: [.projection]
        case .putItem, .deleteItem: [.condition]
        case .updateItem: [.update, .condition]
        case .query: [.projection, .filter, .keyCondition]
        case .scan: [.projection, .filter]
        case .searchVectors: [.projection, .searchCondition]
        }
    }

    /// The order DynamoDB reads the expressions in.
    var checkingOrder: [ExpressionKind] {
        switch self {
        case .query: [.filter, .projection, .keyCondition]
        case .scan: [.filter, .projection]
        case .searchVectors: [.searchCondition, .projection]
        default: expressionParameters
        }
    }
}

/// Everything a request says in expressions or their legacy counterparts.
///
/// ```swift
/// var input = ExpressionInput(.putItem)
/// input.conditionExpression = "attribute_not_exists(pk) OR #v = :v"
/// input.names = ["#v": "version"]
/// input.values = [":v": .n(DynamoNumber(3))]
/// let compiled = try ExpressionCompiler.compile(input)
/// ```
public struct ExpressionInput: Sendable {
    public var operation: ExpressionOperation
    public var conditionExpression: String?
    public var updateExpression: String?
    public var projectionExpression: String?
    public var filterExpression: String?
    public var keyConditionExpression: String?
    /// SearchVectors' `SearchConditionExpression`.
    public var searchConditionExpression: String?
    public var names: [String: String]?
    public var values: [String: AttributeValue]?
    /// Legacy `Expected`.
    public var expected: [String: ExpectedAttributeValue]?
    /// Legacy `ConditionalOperator` (`AND` or `OR`) for `Expected`, `QueryFilter`, `ScanFilter`.
    public var conditionalOperator: String?
    /// Legacy `AttributeUpdates`.
    public var attributeUpdates: [String: AttributeValueUpdate]?
    /// Legacy `AttributesToGet`.
    public var attributesToGet: [String]?
    /// Legacy `KeyConditions`.
    public var keyConditions: [String: Condition]?
    /// Legacy `QueryFilter`.
    public var queryFilter: [String: Condition]?
    /// Legacy `ScanFilter`.
    public var scanFilter: [String: Condition]?
    /// Whether DynamoDB's 2026 request validator checks these parameters (PutItem, UpdateItem,
    /// DeleteItem requests): its `ExpressionAttributeValues can only be specified when using
    /// expressions` has no `: ConditionExpression is null` tail (us-east-1, 2026-08-12).
    public var rewordedValidator = false

    /// An input with no parameters set.
    public init(_ operation: ExpressionOperation) {
        self.operation = operation
    }

    /// Whether no parameter is set (``ExpressionCompiler/compile(_:)`` then has nothing to do).
    var isEmpty: Bool {
        conditionExpression == nil && updateExpression == nil && projectionExpression == nil
            && filterExpression == nil && keyConditionExpression == nil && searchConditionExpression == nil
            && names == nil && values == nil
            && expected == nil && conditionalOperator == nil && attributeUpdates == nil
            && attributesToGet == nil && keyConditions == nil && queryFilter == nil && scanFilter == nil
    }

    func text(of kind: ExpressionKind) -> String? {
        switch kind {
        case .condition: conditionExpression
        case .update: updateExpression
        case .projection: projectionExpression
        case .filter: filterExpression
        case .keyCondition: keyConditionExpression
        case .searchCondition: searchConditionExpression
        }
    }

    /// The legacy parameters present, in the order DynamoDB lists them.
    var legacyParametersPresent: [String] {
        var present: [(String, Bool)]
        switch operation {
        case .getItem: present = [("AttributesToGet", attributesToGet != nil)]
        case .putItem, .deleteItem:
            present = [("Expected", expected != nil), ("ConditionalOperator", conditionalOperator != nil)]
        case .updateItem:
            present = [
                ("AttributeUpdates", attributeUpdates != nil), ("Expected", expected != nil),
                ("ConditionalOperator", conditionalOperator != nil),
            ]
        case .query:
            // KeyConditions with a FilterExpression but no KeyConditionExpression is allowed.
            let keyConditionsCount = keyConditions != nil && keyConditionExpression != nil
            present = [
                ("AttributesToGet", attributesToGet != nil), ("QueryFilter", queryFilter != nil),
                ("ConditionalOperator", conditionalOperator != nil), ("KeyConditions", keyConditionsCount),
            ]
        case .scan:
            present = [
                ("AttributesToGet", attributesToGet != nil), ("ScanFilter", scanFilter != nil),
                ("ConditionalOperator", conditionalOperator != nil),
            ]
        case .searchVectors:
            // SearchVectors has no legacy parameters.
            present = []
        }
        return present.filter(\.1).map(\.0)
    }
}

extension ExpressionInput {
    /// The expression parameters of a SearchVectors request.
    public init(_ input: SearchVectorsInput) {
        self.init(.searchVectors)
        searchConditionExpression = input.searchConditionExpression
        projectionExpression = input.projectionExpression
        names = input.expressionAttributeNames
        values = input.expressionAttributeValues
    }

    /// The expression parameters of a GetItem request.
    public init(_ input: GetItemInput) {
        self.init(.getItem)
        projectionExpression = input.projectionExpression
        names = input.expressionAttributeNames
        attributesToGet = input.attributesToGet
    }

    /// The expression parameters of a PutItem request.
    public init(_ input: PutItemInput) {
        self.init(.putItem)
        rewordedValidator = true
        conditionExpression = input.conditionExpression
        names = input.expressionAttributeNames
        values = input.expressionAttributeValues
        expected = input.expected
        conditionalOperator = input.conditionalOperator?.rawValue
    }

    /// The expression parameters of a DeleteItem request.
    public init(_ input: DeleteItemInput) {
        self.init(.deleteItem)
        rewordedValidator = true
        conditionExpression = input.conditionExpression
        names = input.expressionAttributeNames
        values = input.expressionAttributeValues
        expected = input.expected
        conditionalOperator = input.conditionalOperator?.rawValue
    }

    /// The expression parameters of an UpdateItem request.
    public init(_ input: UpdateItemInput) {
        self.init(.updateItem)
        rewordedValidator = true
        updateExpression = input.updateExpression
        conditionExpression = input.conditionExpression
        names = input.expressionAttributeNames
        values = input.expressionAttributeValues
        expected = input.expected
        conditionalOperator = input.conditionalOperator?.rawValue
        attributeUpdates = input.attributeUpdates
    }

    /// The expression parameters of a Query request.
    public init(_ input: QueryInput) {
        self.init(.query)
        projectionExpression = input.projectionExpression
        filterExpression = input.filterExpression
        keyConditionExpression = input.keyConditionExpression
        names = input.expressionAttributeNames
        values = input.expressionAttributeValues
        attributesToGet = input.attributesToGet
        keyConditions = input.keyConditions
        queryFilter = input.queryFilter
        conditionalOperator = input.conditionalOperator?.rawValue
    }

    /// The expression parameters of a Scan request.
    public init(_ input: ScanInput) {
        self.init(.scan)
        projectionExpression = input.projectionExpression
        filterExpression = input.filterExpression
        names = input.expressionAttributeNames
        values = input.expressionAttributeValues
        attributesToGet = input.attributesToGet
        scanFilter = input.scanFilter
        conditionalOperator = input.conditionalOperator?.rawValue
    }
}
