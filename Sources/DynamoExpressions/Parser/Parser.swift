/// A recursive-descent parser for DynamoDB's three expression grammars.
///
/// It follows the grammar AWS publishes with its DAX client (`DynamoDbGrammar.g4`): comparisons,
/// `BETWEEN`, `IN` and functions bind tightest, then `NOT`, then `AND`, then `OR`; parentheses
/// group. A syntax error names the token where reading stopped and the text from the token
/// before it to the token after it, as DynamoDB does. Two parentheses straight around the same
/// thing are refused at once ("The expression has redundant parentheses;").
struct Parser {
    let text: String
    let tokens: [Token]
    var position = 0
    /// Nesting of the recursion, bounded so that no expression can exhaust the stack.
    var depth = 0

    /// How deep parentheses and `NOT`s may nest. DynamoDB's 4 KB limit allows about 2000; beyond
    /// this bound the expression is refused as a syntax error at the token that goes deeper.
    static let maximumDepth = 400

    init(_ text: String) {
        self.text = text
        self.tokens = Lexer.tokenize(text)
    }

    /// Parses `text` with the grammar of `kind`.
    static func parse(_ text: String, grammar: ExpressionKind.Grammar) throws(ExpressionProblem) -> RawExpression {
        var parser = Parser(text)
        let result: RawExpression
        switch grammar {
        case .condition: result = .condition(try parser.condition())
        case .update: result = .update(try parser.update())
        case .projection: result = .projection(try parser.projection())
        }
        try parser.expect(.end)
        return result
    }

    // MARK: Cursor

    var current: Token { tokens[position] }

    func peek(_ offset: Int = 0) -> Token {
        tokens[min(position + offset, tokens.count - 1)]
    }

    func at(_ kind: TokenKind) -> Bool { current.kind == kind }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    @discardableResult
    mutating func expect(_ kind: TokenKind) throws(ExpressionProblem) -> Token {
        guard at(kind) else { throw syntaxError() }
        return advance()
    }

    /// The syntax error at the current token (or at `index`).
    func syntaxError(at index: Int? = nil) -> ExpressionProblem {
        let at = index ?? position
        let token = tokens[at]
        let from = at > 0 ? tokens[at - 1].start : 0
        let to = at + 1 < tokens.count ? tokens[at + 1].end : token.end
        let bytes = Array(text.utf8)
        let near = String(decoding: bytes[from..<max(from, to)], as: UTF8.self)
        return Message.syntax(token: token.text, near: near)
    }

    mutating func enter() throws(ExpressionProblem) {
        depth += 1
        if depth > Self.maximumDepth { throw syntaxError() }
    }

    mutating func leave() { depth -= 1 }

    // MARK: Shared rules

    /// `path : id ('.' id | '[' INDEX ']')*` where `id` is a name or a `#placeholder`.
    mutating func path() throws(ExpressionProblem) -> RawPath {
        var steps: [RawStep] = [try pathName()]
        while at(.dot) || at(.leftBracket) {
            if advance().kind == .dot {
                steps.append(try pathName())
            } else {
                let index = try expect(.integer)
                try expect(.rightBracket)
                steps.append(.index(index.text))
            }
        }
        return RawPath(steps: steps)
    }

    private mutating func pathName() throws(ExpressionProblem) -> RawStep {
        switch current.kind {
        case .identifier: return .name(advance().text)
        case .namePlaceholder: return .placeholder(advance().text)
        default: throw syntaxError()
        }
    }

    /// `operand : path | :value | function | '(' operand ')'`.
    mutating func operand() throws(ExpressionProblem) -> RawOperand {
        switch current.kind {
        case .valuePlaceholder:
            return .value(advance().text)
        case .leftParen:
            try enter()
            defer { leave() }
            advance()
            let inner = try operand()
            try expect(.rightParen)
            if case .paren = inner { throw Message.redundantParentheses }
            return .paren(inner)
        case .identifier where peek(1).kind == .leftParen:
            return try call()
        case .identifier, .namePlaceholder:
            return .path(try path())
        default:
            throw syntaxError()
        }
    }

    /// `function : ID '(' operand (',' operand)* ')'`.
    mutating func call() throws(ExpressionProblem) -> RawOperand {
        try enter()
        defer { leave() }
        let name = advance().text
        try expect(.leftParen)
        var arguments = [try operand()]
        while at(.comma) {
            advance()
            arguments.append(try operand())
        }
        try expect(.rightParen)
        return .call(name, arguments)
    }

    /// The index of the `)` that closes the `(` at `open`, if any.
    func matchingParen(from open: Int) -> Int? {
        var level = 0
        for index in open..<tokens.count {
            switch tokens[index].kind {
            case .leftParen: level += 1
            case .rightParen:
                level -= 1
                if level == 0 { return index }
            case .end: return nil
            default: break
            }
        }
        return nil
    }
}
