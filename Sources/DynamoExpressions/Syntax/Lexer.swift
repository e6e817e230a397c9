/// Splits an expression into tokens, as DynamoDB's grammar reads them.
enum Lexer {
    /// The tokens of `text`, always ending with an `end` token whose text is `<EOF>`.
    ///
    /// - Complexity: O(n) in the length of the text.
    static func tokenize(_ text: String) -> [Token] {
        let bytes = Array(text.utf8)
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 2 + 2)
        var index = 0
        func emit(_ kind: TokenKind, _ start: Int, _ end: Int) {
            tokens.append(
                Token(
                    kind: kind, text: String(decoding: bytes[start..<end], as: UTF8.self),
                    start: start, end: end))
        }
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                continue
            case _ where isLetter(byte):
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                emit(keyword(bytes[start..<index]) ?? .identifier, start, index)
            case UInt8(ascii: "#"), UInt8(ascii: ":"):
                index += 1
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                let kind: TokenKind =
                    index == start + 1
                    ? .bad
                    : (byte == UInt8(ascii: "#") ? .namePlaceholder : .valuePlaceholder)
                emit(kind, start, index)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                index += 1
                if byte != UInt8(ascii: "0") {
                    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                }
                emit(.integer, start, index)
            case UInt8(ascii: "<"):
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") {
                    index += 2
                    emit(.notEqual, start, index)
                } else if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "=") {
                    index += 2
                    emit(.lessOrEqual, start, index)
                } else {
                    index += 1
                    emit(.less, start, index)
                }
            case UInt8(ascii: ">"):
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "=") {
                    index += 2
                    emit(.greaterOrEqual, start, index)
                } else {
                    index += 1
                    emit(.greater, start, index)
                }
            default:
                index += 1
                if let kind = punctuation(byte) {
                    emit(kind, start, index)
                } else {
                    // One unknown character, all of its UTF-8 bytes.
                    while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
                    emit(.bad, start, index)
                }
            }
        }
        tokens.append(Token(kind: .end, text: "<EOF>", start: bytes.count, end: bytes.count))
        return tokens
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_")
    }

    private static func punctuation(_ byte: UInt8) -> TokenKind? {
        switch byte {
        case UInt8(ascii: "="): .equal
        case UInt8(ascii: "("): .leftParen
        case UInt8(ascii: ")"): .rightParen
        case UInt8(ascii: "["): .leftBracket
        case UInt8(ascii: "]"): .rightBracket
        case UInt8(ascii: ","): .comma
        case UInt8(ascii: "."): .dot
        case UInt8(ascii: "+"): .plus
        case UInt8(ascii: "-"): .minus
        default: nil
        }
    }

    /// The keyword a word spells (any case), or `nil` for a plain name.
    private static func keyword(_ word: ArraySlice<UInt8>) -> TokenKind? {
        guard word.count >= 2, word.count <= 7 else { return nil }
        var upper = ""
        for byte in word { upper.unicodeScalars.append(Unicode.Scalar(byte & 0xDF)) }
        switch upper {
        case "AND": return .and
        case "OR": return .or
        case "NOT": return .not
        case "BETWEEN": return .between
        case "IN": return .in
        case "SET": return .set
        case "REMOVE": return .remove
        case "ADD": return .add
        case "DELETE": return .delete
        default: return nil
        }
    }
}
