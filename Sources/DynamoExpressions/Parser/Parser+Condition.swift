extension Parser {
    /// `condition : and (OR and)*`.
    mutating func condition() throws(ExpressionProblem) -> RawCondition {
        var left = try andCondition()
        while at(.or) {
            advance()
            left = .or(left, try andCondition())
        }
        return left
    }

    private mutating func andCondition() throws(ExpressionProblem) -> RawCondition {
        var left = try notCondition()
        while at(.and) {
            advance()
            left = .and(left, try notCondition())
        }
        return left
    }

    private mutating func notCondition() throws(ExpressionProblem) -> RawCondition {
        guard at(.not) else { return try primary() }
        try enter()
        defer { leave() }
        advance()
        return .not(try notCondition())
    }

    /// A parenthesis opens either a grouped condition or a parenthesized operand. DynamoDB's
    /// parser tries both and keeps the one that reads further; the token after the matching `)`
    /// tells which that is: an operator continues an operand, anything else ends a group.
    private mutating func primary() throws(ExpressionProblem) -> RawCondition {
        guard at(.leftParen) else { return try comparison() }
        if let close = matchingParen(from: position) {
            let next = tokens[close + 1].kind
            if next.comparator != nil || next == .between || next == .in {
                return try comparison()
            }
        }
        try enter()
        defer { leave() }
        advance()
        let inner = try condition()
        try expect(.rightParen)
        if case .paren = inner { throw Message.redundantParentheses }
        return .paren(inner)
    }

    /// `operand comparator operand | operand BETWEEN operand AND operand |
    /// operand IN '(' operand (',' operand)* ')' | function`.
    private mutating func comparison() throws(ExpressionProblem) -> RawCondition {
        let left = try operand()
        if let comparator = current.kind.comparator {
            advance()
            return .compare(comparator, left, try operand())
        }
        switch current.kind {
        case .between:
            advance()
            let lower = try operand()
            try expect(.and)
            return .between(left, lower, try operand())
        case .in:
            advance()
            try expect(.leftParen)
            var list = [try operand()]
            while at(.comma) {
                advance()
                list.append(try operand())
            }
            try expect(.rightParen)
            return .isIn(left, list)
        default:
            if case .call(let name, let arguments) = left { return .function(name, arguments) }
            throw syntaxError()
        }
    }
}
