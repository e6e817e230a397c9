// What the client's answer decoder reads with `JSONByteReader` besides single attribute maps: the
// item lists of Query, Scan and BatchGetItem answers, and the bounds of the members it leaves to
// the JSON parser.

extension JSONByteReader {
    /// Reads a JSON array of items (Query's `Items`). The items of an answer mostly have the same
    /// attributes, so each item's dictionary is made as large as the one before at once.
    package mutating func itemList() throws(FastDecodeBail) -> [Item] {
        try expect(UInt8(ascii: "["))
        var items: [Item] = []
        if consume(UInt8(ascii: "]")) { return items }
        var memberCount = 0
        repeat {
            let item = try attributeMap(minimumCapacity: memberCount)
            memberCount = min(item.count, 64)
            items.append(item)
        } while try continues(before: UInt8(ascii: "]"))
        return items
    }

    /// Reads a JSON object of item lists by table name (BatchGetItem's `Responses`); bails on a
    /// table name seen twice.
    package mutating func itemListsByTable() throws(FastDecodeBail) -> [String: [Item]] {
        try expect(UInt8(ascii: "{"))
        var tables: [String: [Item]] = [:]
        if consume(UInt8(ascii: "}")) { return tables }
        repeat {
            let name = try string()
            try expect(UInt8(ascii: ":"))
            if tables.updateValue(try itemList(), forKey: name) != nil { throw FastDecodeBail() }
        } while try continues(before: UInt8(ascii: "}"))
        return tables
    }

    /// The next byte after whitespace, not consumed; `nil` at the end.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Skips any JSON value (after whitespace) and returns its bytes, for a member the caller
    /// leaves to the parser. Only finds where the value ends: whether it is well-formed is for the
    /// parser of those bytes to say.
    ///
    /// - Complexity: O(*n*) in the value's bytes.
    package mutating func skipValue() throws(FastDecodeBail) -> UnsafeRawBufferPointer {
        skipWhitespace()
        let start = index
        guard index < bytes.count else { throw FastDecodeBail() }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            index = try endOfString(from: index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var nesting = 0
            repeat {
                guard index < bytes.count else { throw FastDecodeBail() }
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
        guard index > start else { throw FastDecodeBail() }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
    }

    /// The offset after the closing quote of the string whose opening quote is at `opening`.
    private func endOfString(from opening: Int) throws(FastDecodeBail) -> Int {
        var offset = opening + 1
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\""): return offset + 1
            case UInt8(ascii: "\\"): offset += 2
            default: offset += 1
            }
        }
        throw FastDecodeBail()
    }

    /// Whether `byte` ends a number or a literal: a separator, a closing bracket or whitespace.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }
}
