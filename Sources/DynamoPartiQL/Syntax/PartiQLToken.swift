/// One token of a PartiQL statement.
struct PartiQLToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// An unquoted name that is not a keyword, as written.
        case identifier(String)
        /// A `"double quoted"` name, unescaped.
        case quotedIdentifier(String)
        /// A reserved word, upper-cased.
        case keyword(String)
        /// A `'single quoted'` string, unescaped.
        case string(String)
        /// A number literal as written.
        case number(String)
        /// `?`.
        case parameter
        /// Punctuation or an operator: `(`, `)`, `[`, `]`, `{`, `}`, `<<`, `>>`, `,`, `.`, `:`,
        /// `;`, `*`, `+`, `-`, `/`, `%`, `||`, `=`, `<>`, `!=`, `<`, `<=`, `>`, `>=`.
        case symbol(String)
        case end
    }

    var kind: Kind
    /// The UTF-8 offset of the token in the statement.
    var offset: Int
    /// The word as written, for names and keywords.
    var raw: String = ""
    /// Where the token is, as the service's messages give it (`at 1:65:7`).
    var span = PartiQLSpan(line: 1, column: 1, length: 0)

    /// Whether the token is the keyword `word` (upper case).
    func isKeyword(_ word: String) -> Bool {
        if case .keyword(word) = kind { return true }
        return false
    }

    /// Whether the token is the symbol `text`.
    func isSymbol(_ text: String) -> Bool {
        if case .symbol(text) = kind { return true }
        return false
    }
}

/// A token's place in the statement as DynamoDB's PartiQL messages print it: line and column
/// counted in characters from 1, and the token's length in characters.
package struct PartiQLSpan: Sendable, Hashable {
    package var line: Int
    package var column: Int
    package var length: Int

    /// ` at <line>:<column>:<length>`, the suffix of the messages that carry a position.
    package var suffix: String { " at \(line):\(column):\(length)" }
}
