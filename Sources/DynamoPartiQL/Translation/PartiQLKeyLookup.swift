import DynamoAPI
import DynamoExpressions

/// A SELECT that can name one item of its table by nothing but equalities: its WHERE clause is
/// `attribute = ?` (or `= 'literal'`) on distinct top-level attributes joined by `AND`, with no
/// index and no ORDER BY. Worked out once per statement text, with its parse
/// (``PartiQLStatementCache``); on a table whose key is exactly those attributes, with values of
/// the key's types, the statement is a GetItem of that key (``key(in:parameters:)``) and needs no
/// plan: such a WHERE has no errors of its own (paths compared with `=` to values, once the
/// parameter count is right) and holds for the item read by that key.
///
/// ```swift
/// let parsed = try PartiQLTranslator.parse(#"SELECT * FROM "T" WHERE pk = ?"#, parameters: [.s("a")])
/// parsed.keyLookup?.key(in: PartiQLSchema(partitionKey: PartiQLKey(name: "pk", type: "S")), parameters: [.s("a")])
/// // ["pk": .s("a")]
/// ```
package struct PartiQLKeyLookup: Sendable {
    /// One `attribute = value` conjunct: the value a `?` (by index) or a literal.
    struct Equality: Sendable {
        var attribute: String
        var parameter: Int?
        var literal: AttributeValue?
    }

    /// The table as the statement names it (a name or an ARN).
    package var table: String
    /// The select list; `nil` for `*`.
    package var projection: [PartiQLProjection]?
    /// The WHERE clause's equalities, in the order written, each on another attribute.
    var equalities: [Equality]

    /// The lookup a statement is, or `nil` for any other statement (which the general SELECT
    /// planning handles, errors included: a select list that repeats a name is one).
    init?(_ statement: PartiQLStatement) {
        guard case .select(let select) = statement, select.index == nil, select.orderBy.isEmpty,
            let whereClause = select.whereClause
        else { return nil }
        var equalities: [Equality] = []
        for conjunct in KeyedWhere.conjuncts(whereClause) {
            guard case .binary("=", let left, let right) = conjunct,
                let equality = Self.equality(left, right) ?? Self.equality(right, left),
                !equalities.contains(where: { $0.attribute == equality.attribute })
            else { return nil }
            equalities.append(equality)
        }
        if let paths = select.projection {
            var projection: [PartiQLProjection] = []
            for path in paths {
                let label = PartiQLTranslator.label(path)
                guard !projection.contains(where: { $0.label == label }) else { return nil }
                projection.append(PartiQLProjection(label: label, path: path))
            }
            self.projection = projection
        }
        self.table = select.table
        self.equalities = equalities
    }

    /// `attribute = value` with the attribute on the left.
    private static func equality(_ attribute: PartiQLExpression, _ value: PartiQLExpression) -> Equality? {
        guard case .path(let path) = attribute, path.elements.count == 1 else { return nil }
        switch value {
        case .parameter(let index): return Equality(attribute: path.attribute, parameter: index)
        case .literal(let literal): return Equality(attribute: path.attribute, literal: literal)
        default: return nil
        }
    }

    /// The key of the one item the statement reads from a table with this key schema, or `nil`
    /// when the equalities are not exactly on its key attributes or a value is not of its key
    /// attribute's type (the general planning answers those: a value of another type matches no
    /// item).
    package func key(in schema: PartiQLSchema, parameters: [AttributeValue]) -> Item? {
        var key: Item = [:]
        guard visitKey(in: schema, parameters: parameters, { key[$0] = $1 }) else { return nil }
        return key
    }

    /// Whether ``key(in:parameters:)`` finds a key, without building it (a request's placement
    /// asks before its run reads the key).
    package func readsOneItem(in schema: PartiQLSchema, parameters: [AttributeValue]) -> Bool {
        visitKey(in: schema, parameters: parameters) { _, _ in }
    }

    /// Hands each key attribute and its value to `body`; `false` (after some) when the
    /// equalities are not the key's.
    private func visitKey(
        in schema: PartiQLSchema, parameters: [AttributeValue], _ body: (String, AttributeValue) -> Void
    ) -> Bool {
        guard equalities.count == (schema.sortKey == nil ? 1 : 2) else { return false }
        for equality in equalities {
            let type: String
            if equality.attribute == schema.partitionKey.name {
                type = schema.partitionKey.type
            } else if let sortKey = schema.sortKey, equality.attribute == sortKey.name {
                type = sortKey.type
            } else {
                return false
            }
            let value: AttributeValue
            if let index = equality.parameter {
                guard index < parameters.count else { return false }
                value = parameters[index]
            } else {
                guard let literal = equality.literal else { return false }
                value = literal
            }
            guard value.typeDescriptor == type else { return false }
            body(equality.attribute, value)
        }
        return true
    }
}
