import DynamoExpressions

extension PartiQLStatement {
    /// For a SELECT: the top-level attributes its WHERE clause reads and those its select list
    /// names (`nil` for `*`), each once, in the order they appear. `nil` for other statements.
    ///
    /// ```swift
    /// // SELECT a, m.x FROM "T" WHERE b = 1 AND a > 2  ->  (filter: ["b", "a"], selected: ["a", "m"])
    /// ```
    package var selectAttributes: (filter: [String], selected: [String]?)? {
        guard case .select(let select) = self else { return nil }
        var filter: [String] = []
        select.whereClause?.collectAttributes(into: &filter)
        let selected = select.projection.map { paths in Self.unique(paths.map(\.attribute)) }
        return (Self.unique(filter), selected)
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}

extension PartiQLExpression {
    /// Appends the top-level attributes the expression reads (not those of a nested `EXISTS`).
    fileprivate func collectAttributes(into names: inout [String]) {
        switch self {
        case .path(let path): names.append(path.attribute)
        case .literal, .missing, .parameter, .exists: break
        case .list(let items), .bag(let items), .call(_, let items, _):
            for item in items { item.collectAttributes(into: &names) }
        case .tuple(let pairs):
            for pair in pairs {
                pair.key.collectAttributes(into: &names)
                pair.value.collectAttributes(into: &names)
            }
        case .negate(let operand), .not(let operand), .isType(let operand, _, _):
            operand.collectAttributes(into: &names)
        case .binary(_, let left, let right), .isIn(let left, let right):
            left.collectAttributes(into: &names)
            right.collectAttributes(into: &names)
        case .between(let value, let low, let high):
            value.collectAttributes(into: &names)
            low.collectAttributes(into: &names)
            high.collectAttributes(into: &names)
        }
    }
}
