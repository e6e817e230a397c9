extension AttributeValue {
    /// Decodes a value from its wire JSON, checking it as DynamoDB checks values in requests.
    ///
    /// - Throws: `SerializationException` when a member has the wrong JSON type (DynamoDB's
    ///   deserializer rejects those), `ValidationException` with DynamoDB's message for an empty
    ///   or ambiguous value, an empty set, a duplicate set member, `NULL: false`, or a number
    ///   DynamoDB cannot store.
    public init(json: JSONValue) throws(DynamoError) {
        guard case .object(let members) = json else {
            throw SerializationMessages.structure(json, className: Self.javaTypeName, position: .element)
        }
        let present = members.filter { $0.value != .null }
        guard let (type, payload) = present.first else {
            throw AttributeValueMessages.suppliedAttributeValueEmptyContainExactly
        }
        guard present.count == 1 else {
            // Type errors in any member surface before the "more than one" check, as in DynamoDB.
            for (otherType, otherPayload) in present { _ = try Self.decode(type: otherType, payload: otherPayload) }
            throw AttributeValueMessages.suppliedAttributeValueMoreThanOne
        }
        guard let value = try Self.decode(type: type, payload: payload) else {
            throw AttributeValueMessages.suppliedAttributeValueEmptyContainExactly
        }
        self = value
    }

    /// Decodes a whole item (an object of attribute values).
    public static func decodeItem(_ json: JSONValue) throws(DynamoError) -> Item {
        guard case .object(let members) = json else {
            throw SerializationMessages.map(json, valueType: javaTypeName, position: .member)
        }
        var item = Item(minimumCapacity: members.count)
        for (name, value) in members where value != .null {
            item[name] = try AttributeValue(json: value)
        }
        return item
    }

    /// Decodes one typed payload; `nil` for a type name DynamoDB does not know.
    private static func decode(type: String, payload: JSONValue) throws(DynamoError) -> AttributeValue? {
        switch type {
        case "S":
            return .s(try string(payload))
        case "N":
            return .n(try DynamoNumber(parsing: try string(payload)))
        case "B":
            return .b(try blob(payload))
        case "BOOL":
            guard case .bool(let flag) = payload else { throw booleanMismatch(payload) }
            return .bool(flag)
        case "NULL":
            // `{"NULL": false}` is refused in both wordings: every region refused it on 2026-10-07
            // (paritysuite captures/2026-10-07-batch-empty-request-items.json), though eu-west-2
            // and eu-central-1 had stored it as `{"NULL": true}` on 2026-06-09.
            guard case .bool(let flag) = payload else { throw booleanMismatch(payload) }
            guard flag else { throw AttributeValueMessages.nullFalse }
            return .null
        case "SS":
            let elements = try list(payload).map { (element) throws(DynamoError) in try string(element) }
            guard !elements.isEmpty else { throw AttributeValueMessages.emptySet("string") }
            if Set(elements).count != elements.count { throw AttributeValueMessages.duplicateStrings(elements) }
            return .ss(elements)
        case "NS":
            let elements = try list(payload).map { (element) throws(DynamoError) in
                try DynamoNumber(parsing: try string(element))
            }
            guard !elements.isEmpty else { throw AttributeValueMessages.emptySet("number") }
            if Set(elements).count != elements.count { throw AttributeValueMessages.duplicateNumbers }
            return .ns(elements)
        case "BS":
            let elements = try list(payload).map { (element) throws(DynamoError) in try blob(element) }
            guard !elements.isEmpty else { throw AttributeValueMessages.emptyBinarySet }
            if Set(elements).count != elements.count { throw AttributeValueMessages.duplicateBinaries(elements) }
            return .bs(elements)
        case "M":
            guard case .object(let members) = payload else {
                throw SerializationMessages.map(payload, valueType: javaTypeName, position: .member)
            }
            var map = [String: AttributeValue](minimumCapacity: members.count)
            for (name, value) in members where value != .null {
                map[name] = try AttributeValue(json: value)
            }
            return .m(map)
        case "L":
            let elements = try list(payload)
            var values: [AttributeValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try AttributeValue(json: element)) }
            return .l(values)
        default:
            return nil
        }
    }

    private static func string(_ json: JSONValue) throws(DynamoError) -> String {
        guard case .string(let text) = json else {
            throw SerializationMessages.scalar(json, simpleName: "String", className: "java.lang.String")
        }
        return text
    }

    private static func list(_ json: JSONValue) throws(DynamoError) -> [JSONValue] {
        guard case .array(let elements) = json else { throw SerializationMessages.list(json, position: .member) }
        return elements
    }

    private static func blob(_ json: JSONValue) throws(DynamoError) -> [UInt8] {
        guard case .string(let text) = json else {
            throw SerializationMessages.scalar(json, simpleName: "ByteBuffer", className: "java.nio.ByteBuffer")
        }
        switch Base64.decode(text) {
        case .success(let bytes): return bytes
        case .failure(let problem):
            throw SerializationMessages.notConvertedBlob(text: text, problemMessage: problem.message)
        }
    }

    private static func booleanMismatch(_ json: JSONValue) -> DynamoError {
        SerializationMessages.scalar(json, simpleName: "Boolean", className: "java.lang.Boolean")
    }
}

extension AttributeValue {
    /// A set's members in the order DynamoDB stores and answers them, whatever order they were
    /// written in: string and binary sets bytewise, number sets by value (the empty string
    /// first). paritysuite/dynamodb-conformance tests/tier1/updateItem/basic.test.ts, eu-west-2,
    /// 2026-10-09 (`ADD tags :v` of `[""]` onto `["a"]` reads back `["", "a"]`). Members
    /// already in order (every stored set) are written without sorting.
    @inline(__always)
    static func inServiceOrder<Member>(_ members: [Member], by precedes: (Member, Member) -> Bool) -> [Member] {
        var index = 1
        while index < members.count {
            if precedes(members[index], members[index - 1]) { return members.sorted(by: precedes) }
            index += 1
        }
        return members
    }

    /// Writes the value's wire JSON.
    public func encode(to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        switch self {
        case .s(let text):
            writer.writeKey("S", first: true)
            writer.write(string: text)
        case .n(let number):
            writer.writeKey("N", first: true)
            writer.write(string: number.description)
        case .b(let bytes):
            writer.writeKey("B", first: true)
            writer.write(string: Base64.encode(bytes))
        case .ss(let texts):
            writer.writeKey("SS", first: true)
            writer.writeRaw(UInt8(ascii: "["))
            for (position, text) in Self.inServiceOrder(texts, by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                writer.write(string: text)
            }
            writer.writeRaw(UInt8(ascii: "]"))
        case .ns(let numbers):
            writer.writeKey("NS", first: true)
            writer.writeRaw(UInt8(ascii: "["))
            for (position, number) in Self.inServiceOrder(numbers, by: <).enumerated() {
                if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                writer.write(string: number.description)
            }
            writer.writeRaw(UInt8(ascii: "]"))
        case .bs(let blobs):
            writer.writeKey("BS", first: true)
            writer.writeRaw(UInt8(ascii: "["))
            for (position, bytes) in Self.inServiceOrder(blobs, by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
                if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                writer.write(string: Base64.encode(bytes))
            }
            writer.writeRaw(UInt8(ascii: "]"))
        case .m(let map):
            writer.writeKey("M", first: true)
            Self.encode(item: map, to: &writer)
        case .l(let values):
            writer.writeKey("L", first: true)
            writer.writeRaw(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
                value.encode(to: &writer)
            }
            writer.writeRaw(UInt8(ascii: "]"))
        case .null:
            writer.writeKey("NULL", first: true)
            writer.write(true)
        case .bool(let flag):
            writer.writeKey("BOOL", first: true)
            writer.write(flag)
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// Writes an item (or a map's members) as a JSON object of attribute values.
    public static func encode(item: [String: AttributeValue], to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        for (name, value) in item {
            writer.writeKey(name, first: first)
            first = false
            value.encode(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// The value as a `JSONValue` tree (for tests and tools; the server writes directly).
    public var json: JSONValue {
        var writer = JSONWriter()
        encode(to: &writer)
        // Our own output is always valid JSON.
        return (try? JSONValue(parsing: writer.bytes)) ?? .null
    }
}
