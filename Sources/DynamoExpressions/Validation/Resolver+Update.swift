import DynamoAPI

extension Resolver {
    /// Resolves an update expression in DynamoDB's order: the names of every target path, the
    /// overlaps of the paths, then from the last action back to the first the names in the
    /// values, and finally the values and their types.
    mutating func update(_ clauses: [RawClause]) throws(ExpressionProblem) -> UpdatePlan {
        var raw: [(keyword: UpdateKeyword, action: RawAction, section: Int)] = []
        for (section, clause) in clauses.enumerated() {
            for action in clause.actions { raw.append((clause.keyword, action, section)) }
        }
        for entry in raw { try checkNames(entry.action.path) }
        var paths: [DocumentPath] = []
        for entry in raw { paths.append(try path(entry.action.path)) }
        try PathOverlap.check(paths)
        for entry in raw.reversed() {
            if let value = entry.action.value { try checkNames(value) }
        }
        var actions = [UpdateAction?](repeating: nil, count: raw.count)
        for index in raw.indices.reversed() {
            let (keyword, action, _) = raw[index]
            let target = paths[index]
            switch keyword {
            case .remove:
                actions[index] = .remove(target)
            case .set:
                actions[index] = .set(target, try operand(action.value!))
            case .add, .delete:
                guard case .value(let placeholder) = action.value! else { continue }
                let constant = try value(placeholder)
                let allowed =
                    switch constant {
                    case .ss, .ns, .bs: true
                    case .n: keyword == .add
                    default: false
                    }
                guard allowed else {
                    throw Message.actionOperandType(keyword.rawValue, Message.longTypeName(constant))
                }
                actions[index] = keyword == .add ? .add(target, constant) : .delete(target, constant)
            }
        }
        return UpdatePlan(actions: actions.map { $0! }, sections: raw.map(\.section), isLegacy: false)
    }

    /// Resolves a projection: each path, then their overlaps.
    mutating func projection(_ raw: [RawPath]) throws(ExpressionProblem) -> ProjectionPlan {
        var paths: [DocumentPath] = []
        for item in raw { paths.append(try path(item)) }
        try PathOverlap.check(paths)
        return ProjectionPlan(paths: paths)
    }
}

/// The rule that no two paths of one update or projection may be the same, one inside the other
/// ("overlap"), or use one attribute both as a map and as a list ("conflict").
enum PathOverlap {
    /// Checks every path against the ones before it; an overlap anywhere is reported before a
    /// conflict. Path one is the earlier path, path two the later, as DynamoDB words it.
    static func check(_ paths: [DocumentPath]) throws(ExpressionProblem) {
        guard paths.count > 1 else { return }
        var conflict: ExpressionProblem?
        for later in 1..<paths.count {
            for earlier in 0..<later {
                let a = paths[earlier].elements, b = paths[later].elements
                var position = 0
                var diverged = false
                while position < a.count, position < b.count {
                    if a[position] != b[position] {
                        if a[position].isIndex != b[position].isIndex, conflict == nil {
                            conflict = Message.conflict(paths[earlier], paths[later])
                        }
                        diverged = true
                        break
                    }
                    position += 1
                }
                if !diverged { throw Message.overlap(paths[earlier], paths[later]) }
            }
        }
        if let conflict { throw conflict }
    }
}
