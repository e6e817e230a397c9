/// One token of a predicate format string.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A key path (`name`, `location.id`, `#name` escaped) or a keyword (`AND`, `nil`…).
        case word(String, escaped: Bool)
        case string(String)
        case number(String)
        /// `%@`, `%K`, `%d`…: the letter after `%` (`@` for `%@`).
        case argument(Character)
        /// `$name`.
        case variable(String)
        /// `==`, `<`, `&&`, `!`… as written.
        case symbol(String)
        /// `[c]`, `[cd]`… with the letters inside.
        case modifier(String)
        /// `@count`, `@sum`…
        case aggregate(String)
        case end
    }

    var kind: Kind
    /// The offset of the token's first character in the format string.
    var offset: Int
}

/// Splits a format string into tokens.
struct PredicateLexer {
    private let characters: [Character]
    private let format: String
    private var index = 0

    init(format: String) {
        self.format = format
        characters = Array(format)
    }

    mutating func tokens() throws(FetchPredicateError) -> [PredicateToken] {
        var result: [PredicateToken] = []
        while true {
            let token = try next()
            result.append(token)
            if token.kind == .end { return result }
        }
    }

    func error(_ what: String, at offset: Int) -> FetchPredicateError {
        FetchPredicateError("Unable to parse \"\(format)\": \(what) at offset \(offset)")
    }

    private var current: Character? { index < characters.count ? characters[index] : nil }

    private func peek(_ ahead: Int) -> Character? {
        index + ahead < characters.count ? characters[index + ahead] : nil
    }

    private mutating func next() throws(FetchPredicateError) -> PredicateToken {
        while let c = current, c.isWhitespace { index += 1 }
        let start = index
        guard let c = current else { return PredicateToken(kind: .end, offset: start) }
        if c == "\"" || c == "'" { return PredicateToken(kind: .string(try string(quote: c)), offset: start) }
        if c.isNumber || ((c == "-" || c == "+" || c == ".") && (peek(1)?.isNumber ?? false)) {
            return PredicateToken(kind: .number(number()), offset: start)
        }
        if c.isLetter || c == "_" || c == "#" {
            let escaped = c == "#"
            if escaped { index += 1 }
            let path = word(allowDots: true)
            guard !path.isEmpty else { throw error("expected a key path after '#'", at: start) }
            return PredicateToken(kind: .word(path, escaped: escaped), offset: start)
        }
        switch c {
        case "%":
            index += 1
            guard let letter = current else { throw error("expected a format specifier after '%'", at: start) }
            if letter == "@" || letter == "K" { index += 1; return PredicateToken(kind: .argument(letter), offset: start) }
            while let l = current, l == "l" || l == "h" || l == "q" { index += 1 }
            guard let spec = current, "dDiuUxXfFeEgGcs".contains(spec) else {
                throw error("unknown format specifier '%\(current.map(String.init) ?? "")'", at: start)
            }
            index += 1
            return PredicateToken(kind: .argument(spec), offset: start)
        case "$":
            index += 1
            let name = word(allowDots: false)
            guard !name.isEmpty else { throw error("expected a variable name after '$'", at: start) }
            return PredicateToken(kind: .variable(name), offset: start)
        case "@":
            index += 1
            return PredicateToken(kind: .aggregate("@" + word(allowDots: false)), offset: start)
        case "[":
            index += 1
            var letters = ""
            while let l = current, l != "]" { letters.append(l); index += 1 }
            guard current == "]" else { throw error("unterminated '['", at: start) }
            index += 1
            return PredicateToken(kind: .modifier(letters), offset: start)
        default:
            break
        }
        for symbol in ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"]
        where characters[index...].starts(with: symbol) {
            index += symbol.count
            return PredicateToken(kind: .symbol(symbol), offset: start)
        }
        guard "=<>!(){},.".contains(c) else { throw error("unexpected character '\(c)'", at: start) }
        index += 1
        return PredicateToken(kind: .symbol(String(c)), offset: start)
    }

    private mutating func word(allowDots: Bool) -> String {
        var text = ""
        while let c = current {
            if c.isLetter || c.isNumber || c == "_" {
                text.append(c)
            } else if allowDots && c == "." && !text.isEmpty && (peek(1).map { $0.isLetter || $0 == "_" || $0 == "@" } ?? false) {
                text.append(c)
                if peek(1) == "@" {
                    index += 2
                    text.append("@")
                    continue
                }
            } else {
                break
            }
            index += 1
        }
        return text
    }

    private mutating func number() -> String {
        var text = ""
        if let sign = current, sign == "-" || sign == "+" { text.append(sign); index += 1 }
        while let c = current, c.isNumber || c == "." { text.append(c); index += 1 }
        if let e = current, e == "e" || e == "E",
            let after = peek(1), after.isNumber || ((after == "-" || after == "+") && (peek(2)?.isNumber ?? false))
        {
            text.append(e); text.append(after); index += 2
            while let c = current, c.isNumber { text.append(c); index += 1 }
        }
        return text
    }

    private mutating func string(quote: Character) throws(FetchPredicateError) -> String {
        let start = index
        index += 1
        var text = ""
        while let c = current {
            index += 1
            if c == quote { return text }
            if c == "\\" {
                guard let escaped = current else { break }
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "0": text.append("\0")
                default: text.append(escaped)
                }
            } else {
                text.append(c)
            }
        }
        throw error("unterminated string", at: start)
    }
}
