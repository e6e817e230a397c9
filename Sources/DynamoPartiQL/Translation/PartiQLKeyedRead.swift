import DynamoAPI
import DynamoExpressions

/// A SELECT that names exactly one item: what BatchExecuteStatement and ExecuteTransaction
/// read (as BatchGetItem and TransactGetItems do).
package struct PartiQLKeyedRead: Sendable {
    package var table: String
    package var key: Item
    /// The WHERE clause beyond the key, checked against the item read.
    package var condition: Predicate?
    package var projection: [PartiQLProjection]?
}

extension PartiQLTranslator {
    /// Plans a single-item SELECT.
    ///
    /// - Parameter incomplete: the error for a WHERE that does not fix the whole key.
    package static func keyedRead(
        _ statement: PartiQLStatement, schema: PartiQLSchema, parameters: [AttributeValue],
        incomplete: DynamoError
    ) throws(DynamoError) -> PartiQLKeyedRead {
        guard case .select(let select) = statement else { throw PartiQLMessages.unsupportedOperation("non-SELECT read") }
        if let refusal = select.projectionError { throw refusal }
        let binder = PartiQLBinder(parameters: parameters)
        let keyed = try KeyedWhere(select.whereClause, schema: schema, binder: binder, incomplete: incomplete)
        let plan = try Self.select(statement, schema: nil, parameters: parameters)
        return PartiQLKeyedRead(
            table: select.table, key: keyed.key,
            condition: try restPredicate(keyed, conditions: PartiQLConditions(binder: binder)),
            projection: plan.projection)
    }
}
