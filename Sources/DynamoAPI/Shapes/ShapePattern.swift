/// A `pattern` constraint of the service model, matched without a regex engine.
///
/// DynamoDB's model uses a handful of simple patterns; each known one has a hand-written matcher
/// that gives the same answer as Java's `Pattern.matches` (a whole-string match). A pattern the
/// generator does not know falls back to `regex`, matched with Swift's `Regex` (slow, but only
/// ever used for a pattern a newer model introduced).
enum ShapePattern: Sendable, Hashable {
    /// `[a-zA-Z0-9_.-]+` (table, index and backup names).
    case tableName
    /// `\p{Print}+` (Java's POSIX class: printable ASCII).
    case printable
    /// The XML character ranges `[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*`.
    case xmlCharacters
    /// `^[^\$]+$`
    case noDollar
    /// `[A-Za-z0-9][A-Za-z0-9\-\_\.]{0,126}[A-Za-z0-9]`
    case contributorInsightsRule
    /// `[,;:|\t ]`
    case csvDelimiter
    /// `[\x20-\x21\x23-\x2B\x2D-\x7E]*`
    case csvHeader
    /// `([0-9a-f]{16})+`
    case importNextToken
    /// `^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$`
    case s3Bucket
    /// `[0-9]{12}`
    case accountID
    /// `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`
    case uuid
    /// Any other pattern, matched with Swift's `Regex` (a pattern it cannot compile matches anything).
    case regex(String)

    /// The pattern exactly as the model writes it (and as DynamoDB quotes it in messages).
    var text: String {
        switch self {
        case .tableName: #"[a-zA-Z0-9_.-]+"#
        case .printable: #"\p{Print}+"#
        case .xmlCharacters: #"[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*"#
        case .noDollar: #"^[^\$]+$"#
        case .contributorInsightsRule: #"[A-Za-z0-9][A-Za-z0-9\-\_\.]{0,126}[A-Za-z0-9]"#
        case .csvDelimiter: #"[,;:|\t ]"#
        case .csvHeader: #"[\x20-\x21\x23-\x2B\x2D-\x7E]*"#
        case .importNextToken: #"([0-9a-f]{16})+"#
        case .s3Bucket: #"^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$"#
        case .accountID: #"[0-9]{12}"#
        case .uuid: #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#
        case .regex(let pattern): pattern
        }
    }

    /// Whether the whole of `value` matches.
    func matches(_ value: String) -> Bool {
        switch self {
        case .tableName:
            return !value.isEmpty && value.utf8.allSatisfy { Self.isNameByte($0) }
        case .printable:
            return !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
        case .xmlCharacters:
            return value.unicodeScalars.allSatisfy { scalar in
                switch scalar.value {
                case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
                default: false
                }
            }
        case .noDollar:
            return !value.isEmpty && !value.utf8.contains(UInt8(ascii: "$"))
        case .contributorInsightsRule:
            let bytes = Array(value.utf8)
            guard bytes.count >= 2, bytes.count <= 128,
                Self.isAlphanumeric(bytes[0]), Self.isAlphanumeric(bytes[bytes.count - 1])
            else { return false }
            return bytes.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
        case .csvDelimiter:
            guard value.utf8.count == 1, let byte = value.utf8.first else { return false }
            return ",;:|\t ".utf8.contains(byte)
        case .csvHeader:
            return value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x2C }
        case .importNextToken:
            let count = value.utf8.count
            return count >= 16 && count % 16 == 0 && value.utf8.allSatisfy(Self.isLowerHex)
        case .s3Bucket:
            let bytes = Array(value.utf8)
            guard bytes.count >= 2, Self.isAlphanumeric(bytes[0]), Self.isAlphanumeric(bytes[bytes.count - 1])
            else { return false }
            return bytes.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        case .accountID:
            return value.utf8.count == 12 && value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        case .uuid:
            let bytes = Array(value.utf8)
            guard bytes.count == 36 else { return false }
            for (offset, byte) in bytes.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    if byte != UInt8(ascii: "-") { return false }
                } else if !Self.isLowerHex(byte) {
                    return false
                }
            }
            return true
        case .regex(let pattern):
            guard let expression = try? Regex(pattern) else { return true }
            return (try? expression.wholeMatch(in: value)) != nil
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}
