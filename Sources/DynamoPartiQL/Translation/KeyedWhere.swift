import DynamoAPI
import DynamoExpressions

/// A WHERE clause split into the equalities that name one item and everything else.
struct KeyedWhere {
    var key: [String: AttributeValue]
    /// The other conjuncts, in the order written.
    var rest: [PartiQLExpression]

    /// The top-level conjuncts of a condition: `a AND (b AND c)` is `[a, b, c]`.
    static func conjuncts(_ expression: PartiQLExpression?) -> [PartiQLExpression] {
        guard let expression else { return [] }
        if case .binary("AND", let left, let right) = expression { return conjuncts(left) + conjuncts(right) }
        return [expression]
    }

    /// Finds one `key = constant` conjunct for every key attribute.
    ///
    /// - Throws: "Where clause does not contain a mandatory equality on all key attributes",
    ///   "Multiple conditions on same key …", or the key type message.
    init(
        _ whereClause: PartiQLExpression?, schema: PartiQLSchema, binder: PartiQLBinder,
        incomplete: DynamoError = PartiQLMessages.incompleteKey
    ) throws(DynamoError) {
        key = [:]
        rest = []
        for conjunct in Self.conjuncts(whereClause) {
            if let (name, value) = try Self.keyEquality(conjunct, schema: schema, binder: binder) {
                if key[name] != nil { throw PartiQLMessages.multipleKeyConditions(name) }
                key[name] = value
            } else {
                rest.append(conjunct)
            }
        }
        for attribute in schema.keys {
            guard let value = key[attribute.name] else { throw incomplete }
            guard value.typeDescriptor == attribute.type else { throw PartiQLMessages.keyType(attribute.name) }
        }
    }

    /// `key = constant` or `constant = key` on a top-level key attribute.
    static func keyEquality(
        _ conjunct: PartiQLExpression, schema: PartiQLSchema,
        binder: PartiQLBinder
    ) throws(DynamoError) -> (String, AttributeValue)? {
        guard case .binary("=", let left, let right) = conjunct else { return nil }
        for (side, other) in [(left, right), (right, left)] {
            guard case .path(let path) = side, path.elements.count == 1,
                schema.keys.contains(where: { $0.name == path.attribute }),
                let value = try binder.constant(other)
            else { continue }
            return (path.attribute, value)
        }
        return nil
    }
}
