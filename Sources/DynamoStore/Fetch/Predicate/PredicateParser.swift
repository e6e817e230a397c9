/// A recursive-descent parser for the `NSPredicate` format subset DynamoDB can evaluate.
///
/// Grammar (keywords case-insensitive; `AND` binds tighter than `OR`, `NOT` tighter than both):
/// ```
/// or         := and (("OR" | "||") and)*
/// and        := unary (("AND" | "&&") unary)*
/// unary      := ("NOT" | "!") unary | "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison := term op term | term "BETWEEN" term | term "IN" term
///             | term ("BEGINSWITH" | "CONTAINS") term
/// term       := keypath | literal | %@ | %K | $variable | "{" term ("," term)* "}"
/// ```
struct PredicateParser {
    private enum Term {
        case keyPath(String)
        case value(PredicateValue)
    }

    private static let unsupportedOperators: [String: String] = [
        "ENDSWITH": "ENDSWITH is not supported: DynamoDB expressions can test a prefix (begins_with) but not a suffix",
        "LIKE": "LIKE is not supported: DynamoDB expressions have no wildcard matching",
        "MATCHES": "MATCHES is not supported: DynamoDB expressions have no regular expressions",
    ]
    private static let unsupportedWords: [String: String] = [
        "ANY": "ANY is not supported: key paths through to-many relationships cannot be evaluated by DynamoDB",
        "SOME": "SOME is not supported: key paths through to-many relationships cannot be evaluated by DynamoDB",
        "ALL": "ALL is not supported: key paths through to-many relationships cannot be evaluated by DynamoDB",
        "NONE": "NONE is not supported: key paths through to-many relationships cannot be evaluated by DynamoDB",
        "SUBQUERY": "SUBQUERY is not supported: DynamoDB cannot evaluate a query inside a filter",
        "FUNCTION": "FUNCTION is not supported: DynamoDB expressions cannot call arbitrary functions",
        "SELF": "SELF is not supported: compare a property of the object instead",
        "CAST": "CAST is not supported: pass the value as a %@ argument instead",
    ]

    private let format: String
    private let tokens: [PredicateToken]
    private var arguments: [PredicateValue]
    private var position = 0
    private var argumentsUsed = 0

    init(format: String, arguments: [PredicateValue]) throws(FetchPredicateError) {
        self.format = format
        var lexer = PredicateLexer(format: format)
        tokens = try lexer.tokens()
        self.arguments = arguments
    }

    mutating func parse() throws(FetchPredicateError) -> FetchPredicate {
        let predicate = try parseOr()
        guard current.kind == .end else { throw syntax("expected AND, OR or the end") }
        guard argumentsUsed == arguments.count else {
            throw FetchPredicateError(
                "\"\(format)\" uses \(argumentsUsed) argument\(argumentsUsed == 1 ? "" : "s") but \(arguments.count) were given")
        }
        return predicate
    }

    // MARK: - Tokens

    private var current: PredicateToken { tokens[position] }

    private func syntax(_ what: String) -> FetchPredicateError {
        FetchPredicateError("Unable to parse \"\(format)\": \(what) at offset \(current.offset)")
    }

    private func unsupported(_ why: String) -> FetchPredicateError {
        FetchPredicateError("Unsupported predicate \"\(format)\": \(why)")
    }

    /// The current token's keyword (upper-cased), if it is an unescaped word.
    private var keyword: String? {
        if case .word(let text, escaped: false) = current.kind { return text.uppercased() }
        return nil
    }

    private func isSymbol(_ symbols: String...) -> Bool {
        if case .symbol(let s) = current.kind { return symbols.contains(s) }
        return false
    }

    private mutating func advance() { position += 1 }

    // MARK: - Boolean structure

    private mutating func parseOr() throws(FetchPredicateError) -> FetchPredicate {
        try parseChain("OR", "||", combine: FetchPredicate.or) { parser throws(FetchPredicateError) in try parser.parseAnd() }
    }

    private mutating func parseAnd() throws(FetchPredicateError) -> FetchPredicate {
        try parseChain("AND", "&&", combine: FetchPredicate.and) { parser throws(FetchPredicateError) in try parser.parseUnary() }
    }

    /// `operand (connective operand)*`, combined when there is more than one.
    private mutating func parseChain(
        _ word: String, _ symbol: String, combine: ([FetchPredicate]) -> FetchPredicate,
        operand: (inout PredicateParser) throws(FetchPredicateError) -> FetchPredicate
    ) throws(FetchPredicateError) -> FetchPredicate {
        var parts = [try operand(&self)]
        while keyword == word || isSymbol(symbol) {
            advance()
            parts.append(try operand(&self))
        }
        return parts.count == 1 ? parts[0] : combine(parts)
    }

    private mutating func parseUnary() throws(FetchPredicateError) -> FetchPredicate {
        if keyword == "NOT" || isSymbol("!") {
            advance()
            return .not(try parseUnary())
        }
        if isSymbol("(") {
            advance()
            let inner = try parseOr()
            guard isSymbol(")") else { throw syntax("expected ')'") }
            advance()
            return inner
        }
        if keyword == "TRUEPREDICATE" { advance(); return .constant(true) }
        if keyword == "FALSEPREDICATE" { advance(); return .constant(false) }
        return try parseComparison()
    }

    // MARK: - Comparisons

    private mutating func parseComparison() throws(FetchPredicateError) -> FetchPredicate {
        let left = try parseTerm()
        let operatorToken = current
        let word = keyword
        if let word, let why = Self.unsupportedOperators[word] { throw unsupported(why) }
        let op: String
        if let word, ["BETWEEN", "IN", "BEGINSWITH", "CONTAINS"].contains(word) {
            op = word
        } else if case .symbol(let symbol) = operatorToken.kind, ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"].contains(symbol) {
            op = symbol
        } else {
            throw syntax("expected a comparison operator")
        }
        advance()
        if case .modifier(let letters) = current.kind {
            throw unsupported(
                "the [\(letters)] modifier is not supported: DynamoDB compares strings by their bytes, exactly (no case or diacritic folding)")
        }
        let right = try parseTerm()
        return try Self.comparison(left, op, right, unsupported: unsupported)
    }

    private static func comparison(
        _ left: Term, _ op: String, _ right: Term, unsupported: (String) -> FetchPredicateError
    ) throws(FetchPredicateError) -> FetchPredicate {
        switch (left, right) {
        case (.keyPath(let a), .keyPath(let b)):
            throw unsupported("comparing key path \(a) with key path \(b) is not supported; compare a key path with a value")
        case (.value, .value):
            throw unsupported("\(op) compares two constants; one side must be a key path")
        case (.value(let value), .keyPath(let path)):
            guard let comparison = symbolOperator(op) else {
                throw unsupported("\(op) needs the key path on its left (\(value.formatted) \(op) \(path) tests membership in a collection)")
            }
            return .compare(path, comparison.flipped, value)
        case (.keyPath(let path), .value(let value)):
            switch op {
            case "BETWEEN":
                switch value {
                case .list(let bounds) where bounds.count == 2: return .between(path, bounds[0], bounds[1])
                case .variable: return .between(path, value, value)
                default: throw unsupported("BETWEEN needs two bounds, as {lower, upper}, not \(value.formatted)")
                }
            case "IN":
                switch value {
                case .list, .variable: return .isIn(path, value)
                default: throw unsupported("IN needs a list, as {a, b} or an array argument, not \(value.formatted)")
                }
            case "BEGINSWITH": return .beginsWith(path, value)
            case "CONTAINS": return .contains(path, value)
            default: return .compare(path, symbolOperator(op)!, value)
            }
        }
    }

    private static func symbolOperator(_ symbol: String) -> PredicateOperator? {
        switch symbol {
        case "==", "=": .equal
        case "!=", "<>": .notEqual
        case "<": .less
        case "<=", "=<": .lessOrEqual
        case ">": .greater
        case ">=", "=>": .greaterOrEqual
        default: nil
        }
    }

    // MARK: - Terms

    private mutating func parseTerm() throws(FetchPredicateError) -> Term {
        let token = current
        switch token.kind {
        case .word(let text, let escaped):
            advance()
            if !escaped, let literal = Self.literal(text.uppercased()) { return .value(literal) }
            if !escaped, let why = Self.unsupportedWords[text.uppercased()] { throw unsupported(why) }
            if text.contains("@") {
                throw unsupported("the aggregate \(text) is not supported: DynamoDB expressions cannot compute over collections")
            }
            return .keyPath(text)
        case .string(let text):
            advance()
            return .value(.string(text))
        case .number(let text):
            advance()
            return .value(try number(text))
        case .argument(let letter):
            advance()
            guard argumentsUsed < arguments.count else {
                throw FetchPredicateError("\"\(format)\" uses more arguments than the \(arguments.count) given")
            }
            let value = arguments[argumentsUsed]
            argumentsUsed += 1
            guard letter == "K" else { return .value(value) }
            guard case .string(let path) = value else {
                throw FetchPredicateError("\"\(format)\": the %K argument must be a key path string, not \(value.kindDescription)")
            }
            return .keyPath(path)
        case .variable(let name):
            advance()
            return .value(.variable(name))
        case .aggregate(let name):
            throw unsupported("the aggregate \(name) is not supported: DynamoDB expressions cannot compute over collections")
        case .symbol("{"):
            advance()
            var values: [PredicateValue] = []
            while !isSymbol("}") {
                guard case .value(let value) = try parseTerm() else {
                    throw syntax("expected a constant in the list")
                }
                values.append(value)
                if isSymbol(",") { advance() } else if !isSymbol("}") { throw syntax("expected ',' or '}'") }
            }
            advance()
            return .value(.list(values))
        case .end:
            throw syntax("expected a key path or a value")
        default:
            throw syntax("expected a key path or a value")
        }
    }

    private static func literal(_ word: String) -> PredicateValue? {
        switch word {
        case "NIL", "NULL": .null
        case "TRUE", "YES": .bool(true)
        case "FALSE", "NO": .bool(false)
        default: nil
        }
    }

    private func number(_ text: String) throws(FetchPredicateError) -> PredicateValue {
        if let integer = Int64(text) { return .int(integer) }
        if let double = Double(text), double.isFinite { return .double(double) }
        throw syntax("\(text) is not a number")
    }
}
