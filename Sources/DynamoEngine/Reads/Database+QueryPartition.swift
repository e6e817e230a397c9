import DynamoAPI
import DynamoExpressions

extension Database {
    /// The one partition a Query reads, for per-partition limits: the global index it reads
    /// (`nil` for the table, or a local index, which shares its table's partitions) and the
    /// value its key condition gives that partition key. `nil` when the table is unknown or the
    /// key condition does not compile (the Query itself then answers DynamoDB's error).
    package func queryPartition(_ input: QueryInput) -> (index: String?, value: AttributeValue)? {
        guard let definition = try? table(named: input.tableName),
            let condition = try? ExpressionCompiler.compile(ExpressionInput(input)).keyCondition
        else { return nil }
        let global = input.indexName.flatMap { name in definition.globalIndexes.first(where: { $0.name == name }) }
        let key = global?.partitionKey.name ?? definition.partitionKey.name
        for (attribute, comparison) in condition.terms where attribute == key {
            if case .equal(let value) = comparison { return (global?.name, value) }
        }
        return nil
    }
}
