import DynamoAPI
import DynamoExpressions

/// The entry point from a statement's text to what the engine runs.
///
/// ```swift
/// let parsed = try PartiQLTranslator.parse(#"UPDATE "T" SET n = n + 1 WHERE pk = ?"#, parameters: [.s("a")])
/// let plan = try PartiQLTranslator.write(parsed.statement, schema: schema, parameters: [.s("a")])
/// ```
package enum PartiQLTranslator {
    /// Parses a statement and checks `Parameters` against its `?`s: too few is DynamoDB's
    /// "Number of parameters in request and statement don't match." (extra ones are ignored,
    /// as the service does). The text is parsed once per distinct statement
    /// (``PartiQLStatementCache``).
    package static func parse(_ text: String, parameters: [AttributeValue]?) throws(DynamoError) -> ParsedStatement {
        try checkParameters(parameters)
        let parsed = try PartiQLStatementCache.shared.parse(text)
        if (parameters?.count ?? 0) < parsed.parameterCount { throw PartiQLMessages.parameterCount }
        // A key lookup's WHERE (`a = ?` conjuncts) has no errors of its own to find.
        if parsed.keyLookup == nil { try checkConditions(parsed.statement, parameters: parameters ?? []) }
        return parsed
    }

    /// Refuses a parameter nested deeper than an item's attribute may be ("Nesting Levels have
    /// exceeded supported limits: …"), as the service does before it reads the statement. The
    /// request decoder has already reported a number a parameter cannot hold
    /// (`AttributeValue.partiQLParameterProblem`); only maps and lists are walked, so a key
    /// lookup's scalar parameters cost one comparison each.
    package static func checkParameters(_ parameters: [AttributeValue]?) throws(DynamoError) {
        guard let parameters else { return }
        for parameter in parameters {
            switch parameter {
            case .m, .l: try ItemSize.checkNesting(["": parameter])
            default: continue
            }
        }
    }

    /// Translates the statement's WHERE clause once without a table, so its own errors (operand
    /// types, functions, `MISSING`) come before the table is looked up, as in DynamoDB.
    private static func checkConditions(_ statement: PartiQLStatement, parameters: [AttributeValue]) throws(DynamoError) {
        let whereClause: PartiQLExpression? =
            switch statement {
            case .select(let select), .exists(let select, _): select.whereClause
            case .update(_, _, _, let whereClause, _), .delete(_, _, let whereClause, _): whereClause
            case .insert: nil
            }
        guard let whereClause else { return }
        guard PartiQLConditions.isBoolean(whereClause) else { throw PartiQLMessages.whereNotBoolean }
        _ = try PartiQLConditions(binder: PartiQLBinder(parameters: parameters)).predicate(whereClause)
    }
}
