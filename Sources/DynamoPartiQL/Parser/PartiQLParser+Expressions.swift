import DynamoAPI
import DynamoExpressions

extension PartiQLParser {
    /// `OR` binds loosest, then `AND`, `NOT`, the predicates (comparisons, `BETWEEN`, `IN`,
    /// `IS`, `LIKE`), `+ - ||`, `* / %`, unary signs, and the primaries.
    mutating func expression() throws(DynamoError) -> PartiQLExpression {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth { throw PartiQLMessages.malformed("Expression nested too deeply") }
        var left = try conjunction()
        while accept(keyword: "OR") {
            try requireRightOperand()
            left = .binary("OR", left, try conjunction())
        }
        return left
    }

    private mutating func conjunction() throws(DynamoError) -> PartiQLExpression {
        var left = try negation()
        while accept(keyword: "AND") {
            try requireRightOperand()
            left = .binary("AND", left, try negation())
        }
        return left
    }

    /// `AND` or `OR` at the end of the statement.
    private func requireRightOperand() throws(DynamoError) {
        if peek.kind == .end || peek.isSymbol(";") { throw PartiQLMessages.missingRightOperand }
    }

    private mutating func negation() throws(DynamoError) -> PartiQLExpression {
        if peek.isKeyword("NOT"), !peek(1).isKeyword("EXISTS") {
            position += 1
            depth += 1
            defer { depth -= 1 }
            if depth > Self.maximumDepth { throw PartiQLMessages.malformed("Expression nested too deeply") }
            return .not(try negation())
        }
        return try predicate()
    }

    private static let comparisons = ["=", "<>", "!=", "<", "<=", ">", ">="]

    private mutating func predicate() throws(DynamoError) -> PartiQLExpression {
        let left = try additive()
        if case .symbol(let op) = peek.kind, Self.comparisons.contains(op) {
            position += 1
            return .binary(op, left, try additive())
        }
        let negated = accept(keyword: "NOT")
        if accept(keyword: "BETWEEN") {
            let lower = try additive()
            try expect(keyword: "AND")
            let between = PartiQLExpression.between(left, lower, try additive())
            return negated ? .not(between) : between
        }
        if accept(keyword: "IN") {
            let membership = PartiQLExpression.isIn(left, try additive())
            return negated ? .not(membership) : membership
        }
        if accept(keyword: "LIKE") {
            let like = PartiQLExpression.binary("LIKE", left, try additive())
            return negated ? .not(like) : like
        }
        if negated { throw unexpected() }
        if accept(keyword: "IS") {
            let isNegated = accept(keyword: "NOT")
            return .isType(left, type: try typeName(), negated: isNegated)
        }
        return left
    }

    /// PartiQL's type names, as `IS` takes them (the translator supports fewer).
    private static let typeNames: Set<String> = [
        "MISSING", "NULL", "BOOL", "BOOLEAN", "SMALLINT", "INT2", "INTEGER2", "INT4", "INTEGER4", "INT8", "INTEGER8",
        "INT", "INTEGER", "BIGINT", "FLOAT", "REAL", "DOUBLE PRECISION", "DECIMAL", "DEC", "NUMERIC", "TIMESTAMP",
        "CHAR", "CHARACTER", "VARCHAR", "CHARACTER VARYING", "STRING", "SYMBOL", "CLOB", "BLOB", "STRUCT", "TUPLE",
        "LIST", "SEXP", "BAG", "DATE", "TIME", "ANY",
    ]

    /// The type after `IS [NOT]`, upper-cased (`DOUBLE PRECISION` and `CHARACTER VARYING` in
    /// two words).
    ///
    /// - Throws: "Expected type name" for a name that is not a type.
    private mutating func typeName() throws(DynamoError) -> String {
        var name: String
        switch peek.kind {
        case .keyword(let word), .identifier(let word): name = word.uppercased()
        case .end, .symbol(";"): throw PartiQLMessages.unexpectedTerm
        default: throw PartiQLMessages.expectedTypeName
        }
        position += 1
        if name == "DOUBLE", peek.isKeyword("PRECISION") || peek.raw.uppercased() == "PRECISION" {
            position += 1
            name = "DOUBLE PRECISION"
        } else if name == "CHARACTER", peek.isKeyword("VARYING") || peek.raw.uppercased() == "VARYING" {
            position += 1
            name = "CHARACTER VARYING"
        }
        guard Self.typeNames.contains(name) else { throw PartiQLMessages.expectedTypeName }
        return name
    }

    private mutating func additive() throws(DynamoError) -> PartiQLExpression {
        var left = try multiplicative()
        while case .symbol(let op) = peek.kind, op == "+" || op == "-" || op == "||" {
            position += 1
            left = .binary(op, left, try multiplicative())
        }
        return left
    }

    private mutating func multiplicative() throws(DynamoError) -> PartiQLExpression {
        var left = try unary()
        while case .symbol(let op) = peek.kind, op == "*" || op == "/" || op == "%" {
            position += 1
            left = .binary(op, left, try unary())
        }
        return left
    }

    private mutating func unary() throws(DynamoError) -> PartiQLExpression {
        if accept(symbol: "-") { return .negate(try nested { (parser: inout PartiQLParser) throws(DynamoError) in try parser.unary() }) }
        if accept(symbol: "+") { return try nested { (parser: inout PartiQLParser) throws(DynamoError) in try parser.unary() } }
        return try primary()
    }

    /// Runs `body` one level deeper, refusing statements that nest past the limit.
    private mutating func nested<T>(_ body: (inout PartiQLParser) throws(DynamoError) -> T) throws(DynamoError) -> T {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth { throw PartiQLMessages.malformed("Expression nested too deeply") }
        return try body(&self)
    }

    private mutating func primary() throws(DynamoError) -> PartiQLExpression {
        let token = peek
        switch token.kind {
        case .string(let text):
            position += 1
            return .literal(.s(text))
        case .number(let text):
            position += 1
            return .literal(.n(number(text)))
        case .parameter:
            position += 1
            parameters += 1
            return .parameter(parameters - 1)
        case .keyword("TRUE"):
            position += 1
            return .literal(.bool(true))
        case .keyword("FALSE"):
            position += 1
            return .literal(.bool(false))
        case .keyword("NULL"):
            position += 1
            return .literal(.null)
        case .keyword("MISSING"):
            position += 1
            return .missing
        case .keyword("EXISTS") where !peek(2).isKeyword("SELECT") && peek(1).isSymbol("("):
            // `EXISTS(path)` is not a function of WHERE: the translator names it.
            position += 1
            return try call("exists", at: token.span)
        case .keyword("EXISTS"):
            position += 1
            try expect(symbol: "(")
            guard peek.isKeyword("SELECT") else { throw unexpected() }
            let select = try select()
            try expect(symbol: ")")
            return .exists(select)
        case .keyword(let word) where peek(1).isSymbol("(") && !Self.operatorKeywords.contains(word):
            // Functions whose names are reserved words (`size`, `count`, …).
            position += 1
            return try call(word.lowercased(), at: token.span)
        case .identifier(let name) where peek(1).isSymbol("("):
            position += 1
            return try call(name.lowercased(), at: token.span)
        case .identifier, .quotedIdentifier:
            return try primaryPath()
        case .symbol("("):
            position += 1
            var members = [try expression()]
            while accept(symbol: ",") { members.append(try expression()) }
            try expect(symbol: ")")
            return members.count == 1 ? members[0] : .list(members)
        case .symbol("["):
            position += 1
            return .list(try members(closing: "]", indexed: true))
        case .symbol("<<"):
            position += 1
            return .bag(try members(closing: ">>", indexed: true))
        case .symbol("{"):
            position += 1
            return try tuple()
        case .keyword(let word) where Self.operatorKeywords.contains(word):
            throw PartiQLMessages.unexpectedOperator
        case .symbol(let op) where Self.operatorSymbols.contains(op):
            throw PartiQLMessages.unexpectedOperator
        default:
            throw unexpected()
        }
    }

    /// Operators that cannot start a term (`WHERE IS NULL`, `pk = LIKE`).
    private static let operatorKeywords: Set<String> = ["IS", "LIKE", "AND", "OR", "BETWEEN", "IN"]
    private static let operatorSymbols: Set<String> = ["=", "<>", "!=", "<", "<=", ">", ">=", "*", "/", "%", "||"]

    /// A number literal's value. A number that breaks DynamoDB's rules is remembered with its
    /// place in the constant around it (`Number overflow. … under root.m[1]`) and reported once
    /// the statement has parsed; the lexer has refused the ones PartiQL cannot read at all.
    private mutating func number(_ text: String) -> DynamoNumber {
        do {
            return try DynamoNumber(partiQL: text)
        } catch {
            if numberError == nil, case .invalid(let problem) = error {
                numberError = PartiQLMessages.numberLiteral(problem, place: constantPath.joined())
            }
            return DynamoNumber(0)
        }
    }

    /// The members of a list, bag or argument list up to `closing`; `indexed` members are
    /// places of a constant (`[1]`) for the number messages.
    private mutating func members(closing: String, indexed: Bool = false) throws(DynamoError) -> [PartiQLExpression] {
        var members: [PartiQLExpression] = []
        if accept(symbol: closing) { return members }
        repeat {
            if indexed { constantPath.append("[\(members.count)]") }
            defer { if indexed { constantPath.removeLast() } }
            members.append(try expression())
        } while accept(symbol: ",")
        try expect(symbol: closing)
        return members
    }

    private mutating func tuple() throws(DynamoError) -> PartiQLExpression {
        var pairs: [(key: PartiQLExpression, value: PartiQLExpression)] = []
        let isItem = nextTupleIsItem
        nextTupleIsItem = false
        if accept(symbol: "}") { return .tuple(pairs) }
        repeat {
            let key = try expression()
            try expect(symbol: ":")
            if !isItem, case .literal(.s(let name)) = key { constantPath.append(".\(name)") } else { constantPath.append("") }
            defer { constantPath.removeLast() }
            pairs.append((key, try expression()))
        } while accept(symbol: ",")
        try expect(symbol: "}")
        return .tuple(pairs)
    }

    /// A function call after its name: the arguments, and where the name and each argument's
    /// first token are (for the messages that give a position).
    private mutating func call(_ name: String, at span: PartiQLSpan) throws(DynamoError) -> PartiQLExpression {
        try expect(symbol: "(")
        if name == "count", accept(symbol: "*") {
            try expect(symbol: ")")
            throw PartiQLMessages.unsupportedOperation("COUNT(*)")
        }
        let outer = constantPath
        constantPath = []
        defer { constantPath = outer }
        var arguments: [PartiQLExpression] = []
        var spans: [PartiQLSpan] = []
        if !accept(symbol: ")") {
            repeat {
                spans.append(peek.span)
                arguments.append(try expression())
            } while accept(symbol: ",")
            try expect(symbol: ")")
        }
        return .call(name, arguments, PartiQLCallSite(name: span, arguments: spans))
    }

    /// A name followed by path steps: `a.b[2]."c d"`.
    mutating func primaryPath() throws(DynamoError) -> PartiQLExpression {
        if peek.isSymbol("[") { throw PartiQLMessages.pathStartsWithIndex }
        let root = try name()
        if root.isEmpty { throw PartiQLMessages.emptyPathComponent }
        var elements: [PathElement] = [.attribute(root)]
        while true {
            if accept(symbol: ".") {
                switch peek.kind {
                case .identifier(let name), .quotedIdentifier(let name):
                    if name.isEmpty { throw PartiQLMessages.emptyPathComponent }
                    elements.append(.attribute(name))
                case .keyword:
                    // A reserved word after a dot (`m.inner`): the service refuses the path.
                    throw PartiQLMessages.invalidPathDot
                case .symbol("*"):
                    throw PartiQLMessages.unpivotPath
                default:
                    throw PartiQLMessages.expectedIdentifier
                }
                position += 1
            } else if accept(symbol: "[") {
                switch peek.kind {
                case .number(let digits):
                    guard let index = Int(digits), index >= 0, index <= Int(Int32.max) else {
                        throw PartiQLMessages.listIndexNotWithinAllowable(digits: digits)
                    }
                    elements.append(.index(index))
                case .string(let key):
                    if key.isEmpty { throw PartiQLMessages.emptyPathComponent }
                    elements.append(.attribute(key))
                case .symbol("*"):
                    throw PartiQLMessages.wildcardPath
                case .symbol("-"):
                    throw PartiQLMessages.listIndexNotWithinAllowable(digits: "-" + tokenText(peek(1)))
                default:
                    throw unexpected()
                }
                position += 1
                try expect(symbol: "]")
            } else {
                return .path(DocumentPath(elements))
            }
        }
    }

    private func tokenText(_ token: PartiQLToken) -> String {
        if case .number(let digits) = token.kind { return digits }
        return ""
    }
}
