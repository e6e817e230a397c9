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
    /// as the service does).
    package static func parse(_ text: String, parameters: [AttributeValue]?) throws(DynamoError) -> ParsedStatement {
        let parsed = try PartiQLParser.parse(text)
        if (parameters?.count ?? 0) < parsed.parameterCount { throw PartiQLMessages.parameterCount }
        return parsed
    }
}
