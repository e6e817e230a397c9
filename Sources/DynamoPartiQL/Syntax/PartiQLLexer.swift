import DynamoAPI
import DynamoExpressions

/// Splits a PartiQL statement into tokens: names, quoted names, strings, numbers, `?`,
/// operators; `--` and `/* */` comments are skipped.
struct PartiQLLexer {
    private let bytes: [UInt8]
    private var position = 0
    /// The line the position is on (from 1) and the offset that line starts at.
    private var line = 1
    private var lineStart = 0
    /// The last token's start and column (1-based, in characters) on its line, so each span
    /// counts only the characters since: a long one-line statement lexes in linear time.
    private var lastColumn: (offset: Int, column: Int, lineStart: Int) = (0, 1, 0)

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Every token of the statement, ending with `.end`.
    ///
    /// - Throws: `ValidationException` "Statement wasn't well formed, can't be processed: …" for
    ///   a character no token starts with or an unterminated string, name or comment (the
    ///   service gives no detail for a stray character or an unterminated comment).
    static func tokenize(_ text: String) throws(DynamoError) -> [PartiQLToken] {
        var lexer = PartiQLLexer(text)
        var tokens: [PartiQLToken] = []
        while true {
            var token = try lexer.next()
            token.span = lexer.span(from: token.offset)
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// The span of the token from `start` to the current position, in characters (UTF-8
    /// continuation bytes are not counted).
    private mutating func span(from start: Int) -> PartiQLSpan {
        func characters(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
        let column =
            lastColumn.lineStart == lineStart && lastColumn.offset <= start
            ? lastColumn.column + characters(lastColumn.offset..<start) : characters(lineStart..<start) + 1
        lastColumn = (start, column, lineStart)
        return PartiQLSpan(line: line, column: column, length: characters(start..<max(start, position)))
    }

    private mutating func next() throws(DynamoError) -> PartiQLToken {
        try skipSpaceAndComments()
        let start = position
        guard position < bytes.count else { return PartiQLToken(kind: .end, offset: start) }
        let byte = bytes[position]
        if Self.isIdentifierStart(byte) {
            while position < bytes.count, Self.isIdentifierPart(bytes[position]) { position += 1 }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            // Names are ASCII (letters, digits, `_`, `$`): upper-case them byte by byte.
            let upper = String(
                decoding: bytes[start..<position].lazy.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 },
                as: UTF8.self)
            let kind: PartiQLToken.Kind = PartiQLKeywords.reserved.contains(upper) ? .keyword(upper) : .identifier(word)
            return PartiQLToken(kind: kind, offset: start, raw: word)
        }
        if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && position + 1 < bytes.count && Self.isDigit(bytes[position + 1])) {
            return PartiQLToken(kind: .number(try number()), offset: start)
        }
        switch byte {
        case UInt8(ascii: "'"):
            return PartiQLToken(kind: .string(try quoted(UInt8(ascii: "'"))), offset: start)
        case UInt8(ascii: "\""):
            return PartiQLToken(kind: .quotedIdentifier(try quoted(UInt8(ascii: "\""))), offset: start)
        case UInt8(ascii: "?"):
            position += 1
            return PartiQLToken(kind: .parameter, offset: start)
        default:
            break
        }
        for symbol in Self.symbols where matches(symbol) {
            position += symbol.utf8.count
            return PartiQLToken(kind: .symbol(symbol), offset: start)
        }
        // A character no token starts with (`#`): the service's envelope with nothing after it.
        throw PartiQLMessages.unreadable
    }

    /// Two-character operators first, so `<=` is not read as `<`.
    private static let symbols = [
        "<<", ">>", "<>", "!=", "<=", ">=", "||", "(", ")", "[", "]", "{", "}", ",", ".",
        ":", ";", "*", "+", "-", "/", "%", "=", "<", ">",
    ]

    /// Whether the bytes at the current position spell `symbol` (compared in place: this runs
    /// for every token and every space).
    private func matches(_ symbol: String) -> Bool {
        var index = position
        for byte in symbol.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private mutating func skipSpaceAndComments() throws(DynamoError) {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A {
                position += 1
                line += 1
                lineStart = position
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                position += 1
            } else if matches("--") {
                while position < bytes.count, bytes[position] != 0x0A { position += 1 }
            } else if matches("/*") {
                position += 2
                while position < bytes.count, !matches("*/") {
                    if bytes[position] == 0x0A {
                        line += 1
                        lineStart = position + 1
                    }
                    position += 1
                }
                // An unterminated comment: nothing after the envelope's colon (eu-west-2, 2026-10).
                guard position < bytes.count else { throw PartiQLMessages.unreadable }
                position += 2
            } else {
                return
            }
        }
    }

    /// A quoted string or name; the quote doubled stands for itself.
    private mutating func quoted(_ quote: UInt8) throws(DynamoError) -> String {
        position += 1
        var content: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == quote {
                if position < bytes.count, bytes[position] == quote {
                    content.append(quote)
                    position += 1
                    continue
                }
                return String(decoding: content, as: UTF8.self)
            }
            content.append(byte)
        }
        throw PartiQLMessages.unexpectedEnd
    }

    /// Digits, an optional fraction and an optional exponent.
    private mutating func number() throws(DynamoError) -> String {
        let start = position
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, Self.isDigit(bytes[position]) else {
                throw PartiQLMessages.malformed("Invalid numeric literal")
            }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, Self.isIdentifierStart(bytes[position]) {
            throw PartiQLMessages.malformed("Invalid numeric literal")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        // A literal PartiQL cannot read at all (an exponent or scale past 32 bits) fails here,
        // before the parse, with nothing after the envelope's colon (eu-west-2, 2026-10).
        do {
            _ = try DynamoNumber(partiQL: text)
        } catch {
            if error == .unconvertible { throw PartiQLMessages.unreadable }
        }
        return text
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x24
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
}
