extension JSONByteReader {
    /// Attribute values nested deeper than this are left to the generic path (which parses up to
    /// 256 JSON levels; each attribute value level is two). The at most 200 JSON levels of the
    /// values leave the levels around them (a request's or an answer's object, an array of items,
    /// an item) room under the parser's limit: a value read here is never one the parser refuses.
    package static let maximumValueDepth = 100

    /// Reads an attribute value in the one form whose generic decode cannot fail: an object with
    /// exactly one member of a known type, no `null`s, a valid number or base64 text, a set that
    /// is not empty and has no duplicate. The value is built by the same calls
    /// `AttributeValue(json:)` makes.
    package mutating func attributeValue(depth: Int = 0) throws(FastDecodeBail) -> AttributeValue {
        guard depth < Self.maximumValueDepth else { throw FastDecodeBail() }
        try expect(UInt8(ascii: "{"))
        let type = try rawToken()
        try expect(UInt8(ascii: ":"))
        let value: AttributeValue
        switch type.count {
        case 1:
            switch type[0] {
            case UInt8(ascii: "S"): value = .s(try string())
            case UInt8(ascii: "N"): value = .n(try number())
            case UInt8(ascii: "B"): value = .b(try blob())
            case UInt8(ascii: "M"): value = .m(try attributeMap(depth: depth + 1))
            case UInt8(ascii: "L"): value = .l(try attributeList(depth: depth + 1))
            default: throw FastDecodeBail()
            }
        case 2:
            guard type[1] == UInt8(ascii: "S") else { throw FastDecodeBail() }
            switch type[0] {
            case UInt8(ascii: "S"):
                let elements = try set { (reader) throws(FastDecodeBail) in try reader.string() }
                value = .ss(elements)
            case UInt8(ascii: "N"):
                let elements = try set { (reader) throws(FastDecodeBail) in try reader.number() }
                value = .ns(elements)
            case UInt8(ascii: "B"):
                let elements = try set { (reader) throws(FastDecodeBail) in try reader.blob() }
                value = .bs(elements)
            default: throw FastDecodeBail()
            }
        default:
            if type.spells("BOOL") {
                value = .bool(try boolean())
            } else if type.spells("NULL") {
                // `{"NULL": false}` is left to the generic decoder, which refuses it.
                guard try boolean() else { throw FastDecodeBail() }
                value = .null
            } else {
                throw FastDecodeBail()
            }
        }
        try expect(UInt8(ascii: "}"))
        return value
    }

    /// Reads an item, a key or an `M` value: an object of attribute values. Bails on a duplicate
    /// name and on a name longer than the model's 65,535 (UTF-16 units, never more than bytes).
    ///
    /// A duplicate name (or two canonically equivalent ones, `é` and `e\u0301`) is left to the
    /// generic path, whose parser keeps the last value: DynamoDB and its SDKs never send one.
    ///
    /// - Parameters:
    ///   - depth: How deep in attribute values the map is (0 for an item).
    ///   - minimumCapacity: The members to make room for at once (a list of items makes each
    ///     item as large as the one before instead of growing it step by step).
    package mutating func attributeMap(
        depth: Int = 0, minimumCapacity: Int = 0
    ) throws(FastDecodeBail) -> [String: AttributeValue] {
        try expect(UInt8(ascii: "{"))
        if consume(UInt8(ascii: "}")) { return [:] }
        var map = [String: AttributeValue](minimumCapacity: minimumCapacity)
        repeat {
            let name = try string()
            guard name.utf8.count <= 65535 else { throw FastDecodeBail() }
            try expect(UInt8(ascii: ":"))
            let value = try attributeValue(depth: depth)
            if map.updateValue(value, forKey: name) != nil { throw FastDecodeBail() }
        } while try continues(before: UInt8(ascii: "}"))
        return map
    }

    private mutating func attributeList(depth: Int) throws(FastDecodeBail) -> [AttributeValue] {
        try expect(UInt8(ascii: "["))
        var values: [AttributeValue] = []
        if consume(UInt8(ascii: "]")) { return values }
        repeat {
            values.append(try attributeValue(depth: depth))
        } while try continues(before: UInt8(ascii: "]"))
        return values
    }

    /// A set's elements: at least one, no two equal (as `AttributeValue(json:)` compares them).
    private mutating func set<Element: Hashable>(
        _ element: (inout JSONByteReader) throws(FastDecodeBail) -> Element
    ) throws(FastDecodeBail) -> [Element] {
        try expect(UInt8(ascii: "["))
        var elements: [Element] = []
        if consume(UInt8(ascii: "]")) { throw FastDecodeBail() }
        repeat {
            elements.append(try element(&self))
        } while try continues(before: UInt8(ascii: "]"))
        if elements.count > 1, Set(elements).count != elements.count { throw FastDecodeBail() }
        return elements
    }

    private mutating func number() throws(FastDecodeBail) -> DynamoNumber {
        let text = try string()
        guard let number = try? DynamoNumber(parsing: text) else { throw FastDecodeBail() }
        return number
    }

    private mutating func blob() throws(FastDecodeBail) -> [UInt8] {
        let text = try string()
        guard case .success(let bytes) = Base64.decode(text) else { throw FastDecodeBail() }
        return bytes
    }
}
