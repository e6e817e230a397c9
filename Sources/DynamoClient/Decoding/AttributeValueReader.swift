import DynamoAPI

/// Reads DynamoDB attribute values straight from the bytes of a JSON answer, without building a
/// `JSONValue` tree first.
///
/// The client's fast path for the item members of an answer (Query's `Items`, GetItem's `Item`,
/// …; see ``ItemBearingOutput``). It reads only what the generic path (`JSONValue(parsing:)`,
/// then the output shape's decoder) decodes without complaint: well-formed JSON in which every
/// value is an object with one known type member and a valid payload. On anything else (a syntax
/// error, `null`, a second type member, an unknown type, an empty set or a repeated set member,
/// a number DynamoDB cannot store, bad base64, nesting deeper than ``maximumDepth``) it throws
/// ``Unrecognized`` and reads no further; ``AnswerDecoder`` then decodes the whole answer the
/// generic way, so every error and edge case is that path's.
///
/// Where it does read a value, the value is the one the generic path makes: strings without
/// escapes are made from their bytes (validated as UTF-8 unless ASCII, as the parser does), a
/// string with escapes is unescaped by `JSONValue(parsing:)` itself, numbers go through
/// `DynamoNumber(parsing:)` and binaries through `Base64.decode(_:)`, and a repeated name in an
/// object keeps its last value.
///
/// The reader borrows the bytes: use it only inside the `withUnsafeBufferPointer` that made them.
///
/// ```swift
/// let items = body.withUnsafeBufferPointer { bytes in
///     var reader = AttributeValueReader(bytes)
///     return try? reader.readItemList()
/// }
/// ```
///
/// - Complexity: O(*n*) in the bytes read, plus the set checks of each set value.
struct AttributeValueReader {
    /// The reader met something it leaves to the generic path.
    struct Unrecognized: Error {}

    /// Objects and arrays nested deeper are left to the generic path (DynamoDB nests attribute
    /// values at most 32 levels, two JSON levels each; the parser's own limit is 256).
    static let maximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private(set) var index: Int
    private var depth = 0
    /// The member count of the last map read: the items of an answer mostly have the same
    /// attributes, so the next map is made this large at once instead of growing step by step.
    private var expectedMemberCount = 0

    /// A reader of `bytes` from `index`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    // MARK: Items

    /// Reads an item: a JSON object of attribute values.
    mutating func readItem() throws(Unrecognized) -> Item {
        try open(UInt8(ascii: "{"))
        var item = Item(minimumCapacity: expectedMemberCount)
        var more = try firstMember(closing: UInt8(ascii: "}"))
        while more {
            let name = try readString()
            try expect(UInt8(ascii: ":"))
            item[name] = try readValue()
            more = try nextMember(closing: UInt8(ascii: "}"))
        }
        expectedMemberCount = min(item.count, 64)
        return item
    }

    /// Reads a JSON array of items (`Items`).
    mutating func readItemList() throws(Unrecognized) -> [Item] {
        try readArray { (reader) throws(Unrecognized) in try reader.readItem() }
    }

    /// Reads a JSON object of item lists by table name (BatchGetItem's `Responses`).
    mutating func readItemListsByTable() throws(Unrecognized) -> [String: [Item]] {
        try open(UInt8(ascii: "{"))
        var tables: [String: [Item]] = [:]
        var more = try firstMember(closing: UInt8(ascii: "}"))
        while more {
            let name = try readString()
            try expect(UInt8(ascii: ":"))
            tables[name] = try readItemList()
            more = try nextMember(closing: UInt8(ascii: "}"))
        }
        return tables
    }

    /// Reads one attribute value: an object with one type member, such as `{"S": "text"}`.
    mutating func readValue() throws(Unrecognized) -> AttributeValue {
        try open(UInt8(ascii: "{"))
        skipWhitespace()
        let type = try readTypeName()
        try expect(UInt8(ascii: ":"))
        let value: AttributeValue
        switch type {
        case .s: value = .s(try readString())
        case .n: value = .n(try readNumber())
        case .b: value = .b(try readBinary())
        case .bool: value = .bool(try readBoolean())
        case .null:
            // `{"NULL": false}` is a NULL too, as in `AttributeValue(json:)`.
            _ = try readBoolean()
            value = .null
        case .ss: value = .ss(try readSet { (reader) throws(Unrecognized) in try reader.readString() })
        case .ns: value = .ns(try readSet { (reader) throws(Unrecognized) in try reader.readNumber() })
        case .bs: value = .bs(try readSet { (reader) throws(Unrecognized) in try reader.readBinary() })
        case .m: value = .m(try readItem())
        case .l: value = .l(try readArray { (reader) throws(Unrecognized) in try reader.readValue() })
        }
        // A second member (even a `null` one) is left to the generic path.
        guard try !nextMember(closing: UInt8(ascii: "}")) else { throw Unrecognized() }
        return value
    }

    // MARK: Payloads

    /// The ten type names, read from their bytes without making a string.
    private enum TypeName { case s, n, b, ss, ns, bs, m, l, null, bool }

    private mutating func readTypeName() throws(Unrecognized) -> TypeName {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unrecognized() }
        let start = index + 1
        var end = start
        while end < bytes.count, end - start < 5, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { throw Unrecognized() }
        index = end + 1
        let first = bytes[start]
        switch end - start {
        case 1:
            switch first {
            case UInt8(ascii: "S"): return .s
            case UInt8(ascii: "N"): return .n
            case UInt8(ascii: "B"): return .b
            case UInt8(ascii: "M"): return .m
            case UInt8(ascii: "L"): return .l
            default: throw Unrecognized()
            }
        case 2 where bytes[start + 1] == UInt8(ascii: "S"):
            switch first {
            case UInt8(ascii: "S"): return .ss
            case UInt8(ascii: "N"): return .ns
            case UInt8(ascii: "B"): return .bs
            default: throw Unrecognized()
            }
        case 4:
            if matches("NULL", at: start) { return .null }
            if matches("BOOL", at: start) { return .bool }
            throw Unrecognized()
        default:
            throw Unrecognized()
        }
    }

    private mutating func readNumber() throws(Unrecognized) -> DynamoNumber {
        do {
            return try DynamoNumber(parsing: try readString())
        } catch {
            throw Unrecognized()
        }
    }

    private mutating func readBinary() throws(Unrecognized) -> [UInt8] {
        guard case .success(let bytes) = Base64.decode(try readString()) else { throw Unrecognized() }
        return bytes
    }

    private mutating func readBoolean() throws(Unrecognized) -> Bool {
        skipWhitespace()
        if matches("true", at: index) {
            index += 4
            return true
        }
        if matches("false", at: index) {
            index += 5
            return false
        }
        throw Unrecognized()
    }

    /// Reads a JSON array, each element with `readElement`.
    private mutating func readArray<Element>(
        _ readElement: (inout AttributeValueReader) throws(Unrecognized) -> Element
    ) throws(Unrecognized) -> [Element] {
        try open(UInt8(ascii: "["))
        var elements: [Element] = []
        var more = try firstMember(closing: UInt8(ascii: "]"))
        while more {
            elements.append(try readElement(&self))
            more = try nextMember(closing: UInt8(ascii: "]"))
        }
        return elements
    }

    /// Reads the elements of a set: an empty set, or one with a repeated element, is an error
    /// on the generic path.
    private mutating func readSet<Element: Hashable>(
        _ readElement: (inout AttributeValueReader) throws(Unrecognized) -> Element
    ) throws(Unrecognized) -> [Element] {
        let elements = try readArray(readElement)
        guard !elements.isEmpty, Set(elements).count == elements.count else { throw Unrecognized() }
        return elements
    }

    /// Reads a JSON string (after any whitespace).
    mutating func readString() throws(Unrecognized) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unrecognized() }
        let opening = index
        index += 1
        var bits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[(opening + 1)..<index])
                index += 1
                if bits < 0x80 { return String(decoding: text, as: UTF8.self) }
                guard let validated = String(validating: text, as: UTF8.self) else { throw Unrecognized() }
                return validated
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: opening) }
            if byte < 0x20 { throw Unrecognized() }
            bits |= byte
            index += 1
        }
        throw Unrecognized()
    }

    /// Reads a string with escapes from its opening quote: unescaped by the JSON parser, so
    /// both paths agree on every escape.
    private mutating func readEscapedString(from opening: Int) throws(Unrecognized) -> String {
        index = try endOfString(from: opening)
        guard case .string(let text)? = try? JSONValue(parsing: UnsafeBufferPointer(rebasing: bytes[opening..<index]))
        else { throw Unrecognized() }
        return text
    }

    /// The offset after the closing quote of the string opening at `opening`.
    private func endOfString(from opening: Int) throws(Unrecognized) -> Int {
        var offset = opening + 1
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\""): return offset + 1
            case UInt8(ascii: "\\"): offset += 2
            default: offset += 1
            }
        }
        throw Unrecognized()
    }

    // MARK: Other values

    /// Skips any JSON value (after whitespace) and returns its bytes, for members the generic
    /// path decodes. Only finds where the value ends: whether it is well-formed is for the
    /// parser of those bytes to say.
    mutating func skipValue() throws(Unrecognized) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        let start = index
        guard index < bytes.count else { throw Unrecognized() }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            index = try endOfString(from: index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var nesting = 0
            repeat {
                guard index < bytes.count else { throw Unrecognized() }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = try endOfString(from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): nesting -= 1
                default: break
                }
                index += 1
            } while nesting > 0
        default:
            while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
        }
        guard index > start else { throw Unrecognized() }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    // MARK: Structure

    /// Whether only whitespace is left.
    mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// The next byte after whitespace, not consumed.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes an opening `{` or `[` (after whitespace), one level deeper.
    mutating func open(_ bracket: UInt8) throws(Unrecognized) {
        try expect(bracket)
        depth += 1
        guard depth <= Self.maximumDepth else { throw Unrecognized() }
    }

    /// After an opening bracket: `true` when a member (or element) follows, `false` when the
    /// closing bracket does (consumed, one level up).
    mutating func firstMember(closing: UInt8) throws(Unrecognized) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw Unrecognized() }
        guard bytes[index] == closing else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// After a member (or element): `true` after a `,`, `false` after the closing bracket (one
    /// level up).
    mutating func nextMember(closing: UInt8) throws(Unrecognized) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw Unrecognized() }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == closing else { throw Unrecognized() }
        depth -= 1
        return false
    }

    /// Consumes `byte` after whitespace.
    mutating func expect(_ byte: UInt8) throws(Unrecognized) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw Unrecognized() }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func matches(_ literal: StaticString, at offset: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for position in 0..<count where bytes[offset + position] != expected[position] { return false }
        return true
    }
}
