import DynamoAPI
import DynamoExpressions

/// An expression of a PartiQL statement, as parsed (parameters not yet bound).
package indirect enum PartiQLExpression: Sendable {
    /// An attribute or a document path of the item.
    case path(DocumentPath)
    /// A scalar literal: a string, a number, `TRUE`/`FALSE`, `NULL`.
    case literal(AttributeValue)
    /// `MISSING`.
    case missing
    /// The `?` at this position (0-based, in the order they appear).
    case parameter(Int)
    /// `[a, b]`.
    case list([PartiQLExpression])
    /// `{'k': v}`.
    case tuple([(key: PartiQLExpression, value: PartiQLExpression)])
    /// `<<a, b>>`.
    case bag([PartiQLExpression])
    /// `-x`, `+x`.
    case negate(PartiQLExpression)
    /// `a op b` for comparisons (`=`, `<>`, `!=`, `<`, …), arithmetic (`+`, `-`, `*`, `/`, `%`,
    /// `||`), `AND`, `OR`, `LIKE`.
    case binary(String, PartiQLExpression, PartiQLExpression)
    case not(PartiQLExpression)
    case between(PartiQLExpression, PartiQLExpression, PartiQLExpression)
    /// `x IN [..]` or `x IN (..)`; the right side as written.
    case isIn(PartiQLExpression, PartiQLExpression)
    /// `x IS [NOT] TYPE`.
    case isType(PartiQLExpression, type: String, negated: Bool)
    /// A function call, its name lower-cased, and where it was written.
    case call(String, [PartiQLExpression], PartiQLCallSite)
    /// `EXISTS(SELECT …)`, a transaction's condition check.
    case exists(PartiQLSelect)
}

extension PartiQLExpression {
    /// Whether the expression is the top-level attribute `name` (a key attribute's path).
    func isAttribute(_ name: String) -> Bool {
        if case .path(let path) = self, path.elements.count == 1, path.attribute == name { return true }
        return false
    }
}

/// Where a function call was written: its name and the first token of each argument (the
/// service's messages about a call point at one of them).
package struct PartiQLCallSite: Sendable, Hashable {
    package var name: PartiQLSpan
    package var arguments: [PartiQLSpan]
}

/// `SELECT … FROM "T"[."I"] [WHERE …] [ORDER BY …]`.
package struct PartiQLSelect: Sendable {
    /// The projected paths; `nil` for `*`.
    var projection: [DocumentPath]?
    var table: String
    var index: String?
    var whereClause: PartiQLExpression?
    /// `ORDER BY` terms: an attribute name and whether it is descending.
    var orderBy: [(name: String, descending: Bool)] = []
    /// The refusal of a function call in the select list (`SELECT COUNT(*) FROM "T"."I"`),
    /// which the service reports only after its checks of the index the statement reads.
    var projectionError: DynamoError?
}

/// Which item image an UPDATE or DELETE returns.
package enum PartiQLReturning: String, Sendable {
    case allOld = "ALL OLD"
    case modifiedOld = "MODIFIED OLD"
    case allNew = "ALL NEW"
    case modifiedNew = "MODIFIED NEW"
}

/// One action of an UPDATE.
package enum PartiQLUpdateClause: Sendable {
    case set(DocumentPath, PartiQLExpression)
    case remove(DocumentPath)
}

/// A parsed PartiQL statement.
package enum PartiQLStatement: Sendable {
    case select(PartiQLSelect)
    case insert(table: String, index: String?, item: PartiQLExpression)
    case update(
        table: String, index: String?, clauses: [PartiQLUpdateClause], whereClause: PartiQLExpression?,
        returning: PartiQLReturning?)
    case delete(table: String, index: String?, whereClause: PartiQLExpression?, returning: PartiQLReturning?)
    /// `EXISTS(SELECT …)` or `NOT EXISTS(SELECT …)`: only in ExecuteTransaction.
    case exists(PartiQLSelect, negated: Bool)

    /// The table the statement names.
    package var table: String {
        switch self {
        case .select(let select), .exists(let select, _): select.table
        case .insert(let table, _, _), .update(let table, _, _, _, _), .delete(let table, _, _, _): table
        }
    }

    /// The index the statement names (`"T"."I"`), if any.
    package var index: String? {
        switch self {
        case .select(let select), .exists(let select, _): select.index
        case .insert(_, let index, _), .update(_, let index, _, _, _), .delete(_, let index, _, _): index
        }
    }

    /// The refusal of a SELECT's select list that waits for the checks of the index it reads
    /// (a multi-attribute index is refused first); every read plan throws it.
    package var projectionError: DynamoError? {
        if case .select(let select) = self { return select.projectionError }
        return nil
    }

    /// Whether the statement is a transaction's `[NOT] EXISTS` check.
    package var isCheck: Bool {
        if case .exists = self { return true }
        return false
    }

    /// Whether the statement reads (SELECT) rather than writes or checks.
    package var isRead: Bool {
        if case .select = self { return true }
        return false
    }
}

/// A parsed statement with the number of `?` it holds.
package struct ParsedStatement: Sendable {
    package var statement: PartiQLStatement
    package var parameterCount: Int
    /// The statement as a read of one item by equalities, if it is one (worked out with the
    /// parse, so a statement sent again is not analysed again).
    package var keyLookup: PartiQLKeyLookup?

    package init(statement: PartiQLStatement, parameterCount: Int) {
        self.statement = statement
        self.parameterCount = parameterCount
        keyLookup = PartiQLKeyLookup(statement)
    }
}
