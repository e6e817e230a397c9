import DynamoAPI
import DynamoExpressions

/// Builders shared by the expression tests.
enum T {
    static func n(_ value: Int) -> AttributeValue { .n(DynamoNumber(value)) }

    static func item(_ json: String) -> Item {
        try! AttributeValue.decodeItem(JSONValue(parsing: json))
    }

    /// Compiles a request's expressions; names and values as wire JSON.
    static func compile(
        _ operation: ExpressionOperation, condition: String? = nil, update: String? = nil,
        projection: String? = nil, filter: String? = nil, keyCondition: String? = nil,
        names: [String: String]? = nil, values: String? = nil
    ) throws(DynamoError) -> CompiledExpressions {
        var input = ExpressionInput(operation)
        input.conditionExpression = condition
        input.updateExpression = update
        input.projectionExpression = projection
        input.filterExpression = filter
        input.keyConditionExpression = keyCondition
        input.names = names
        input.values = values.map { item($0) }
        return try ExpressionCompiler.compile(input)
    }

    /// The message of the error `body` throws, or nil.
    static func error(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as DynamoError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}
