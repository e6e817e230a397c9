extension Parser {
    /// `update : (SET set_action (',' set_action)* | REMOVE path (',' path)* |
    /// ADD path :value (',' ...)* | DELETE path :value (',' ...)*)+`.
    mutating func update() throws(ExpressionProblem) -> [RawClause] {
        var clauses: [RawClause] = []
        repeat {
            let keyword: UpdateKeyword
            switch current.kind {
            case .set: keyword = .set
            case .remove: keyword = .remove
            case .add: keyword = .add
            case .delete: keyword = .delete
            default: throw syntaxError()
            }
            advance()
            var actions = [try action(keyword)]
            while at(.comma) {
                advance()
                actions.append(try action(keyword))
            }
            clauses.append(RawClause(keyword: keyword, actions: actions))
        } while !at(.end)
        return clauses
    }

    private mutating func action(_ keyword: UpdateKeyword) throws(ExpressionProblem) -> RawAction {
        let target = try path()
        switch keyword {
        case .remove:
            return RawAction(path: target, value: nil)
        case .add, .delete:
            let value = try expect(.valuePlaceholder)
            return RawAction(path: target, value: .value(value.text))
        case .set:
            try expect(.equal)
            return RawAction(path: target, value: try setValue())
        }
    }

    /// `set_value : operand | operand ('+'|'-') operand | '(' arithmetic ')'`.
    private mutating func setValue() throws(ExpressionProblem) -> RawOperand {
        if at(.leftParen), let close = matchingParen(from: position) {
            // A parenthesized arithmetic: `(a + b)`; otherwise the parenthesis is an operand's.
            if containsTopLevelArithmetic(from: position + 1, to: close) {
                try enter()
                defer { leave() }
                advance()
                let inner = try setValue()
                try expect(.rightParen)
                if case .paren = inner { throw Message.redundantParentheses }
                return .paren(inner)
            }
        }
        let left = try operand()
        guard at(.plus) || at(.minus) else { return left }
        let op: ArithmeticOperator = advance().kind == .plus ? .plus : .minus
        return .arithmetic(op, left, try operand())
    }

    /// Whether the tokens `from..<to` are an arithmetic: a `+` or `-` outside nested parentheses,
    /// or a parenthesized arithmetic.
    private func containsTopLevelArithmetic(from: Int, to: Int) -> Bool {
        guard from < to else { return false }
        if tokens[from].kind == .leftParen, matchingParen(from: from) == to - 1 {
            return containsTopLevelArithmetic(from: from + 1, to: to - 1)
        }
        var level = 0
        for index in from..<to {
            switch tokens[index].kind {
            case .leftParen: level += 1
            case .rightParen: level -= 1
            case .plus where level == 0, .minus where level == 0: return true
            default: break
            }
        }
        return false
    }

    /// `projection : path (',' path)*`.
    mutating func projection() throws(ExpressionProblem) -> [RawPath] {
        var paths = [try path()]
        while at(.comma) {
            advance()
            paths.append(try path())
        }
        return paths
    }
}
