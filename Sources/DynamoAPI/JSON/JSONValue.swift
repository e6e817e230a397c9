/// A parsed JSON document.
///
/// Numbers keep their source text so that nothing is lost to `Double`; DynamoDB sends numbers
/// inside attribute values as strings, but request members such as `Limit` are JSON numbers and
/// must be range-checked exactly as written.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A JSON number, as written in the source text.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The name DynamoDB's serialization errors use for this value's JSON type.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The members of an object, or `nil` for every other value.
    @inlinable public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string, or `nil` for every other value.
    @inlinable public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Looks a member up when this value is an object.
    @inlinable public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

extension JSONValue {
    /// Parses a complete JSON document.
    /// - Throws: `JSONParseError` when the bytes are not one well-formed JSON value.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(bytes))
        self = try parser.parseDocument()
    }

    /// Parses a complete JSON document from text.
    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The compact JSON text of this value (object members sorted by key, for stable output).
    public var serialized: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.string
    }
}
