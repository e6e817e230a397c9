/// The kinds of token DynamoDB's expression grammar reads.
///
/// Names start with a letter and go on with letters, digits and `_`; `#x` and `:x` are
/// placeholders; list indexes are `0` or digits without a leading zero. The keywords are
/// case-insensitive. A character the grammar does not know is a `bad` token of its own, and so is
/// a `#` or `:` with no name after it.
enum TokenKind: Equatable, Sendable {
    case identifier, namePlaceholder, valuePlaceholder, integer
    case and, or, not, between, `in`, set, remove, add, delete
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case leftParen, rightParen, leftBracket, rightBracket, comma, dot, plus, minus
    case bad, end

    /// The comparator this token spells, if it is one.
    var comparator: Comparator? {
        switch self {
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        default: nil
        }
    }
}

/// One token with its place in the expression (UTF-8 byte offsets).
struct Token: Sendable {
    var kind: TokenKind
    var text: String
    var start: Int
    var end: Int
}
