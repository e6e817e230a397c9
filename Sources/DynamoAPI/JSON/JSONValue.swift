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

    /// Parses a complete JSON document whose every non-empty object also holds, under
    /// ``memberOrderKey``, an array of its member names in the order they were written.
    ///
    /// For the rare checks that must report the first problem as written (a PartiQL
    /// statement's parameters, whose maps DynamoDB walks in document order); the tree is not
    /// a request's tree: every object has the extra member.
    /// - Throws: `JSONParseError` when the bytes are not one well-formed JSON value.
    package init(parsingWithMemberOrder bytes: some Collection<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(bytes), recordsMemberOrder: true)
        self = try parser.parseDocument()
    }

    /// The member under which ``init(parsingWithMemberOrder:)`` keeps an object's member names
    /// in document order: a name no DynamoDB request uses (it starts with a NUL). A repeated name
    /// counts where it first appears.
    package static let memberOrderKey = "\u{0}memberOrder"

    /// The members of an object parsed by ``init(parsingWithMemberOrder:)``, in document order
    /// (without ``memberOrderKey``); in key order for any other object, `nil` for every other
    /// value.
    package var orderedMembers: [(key: String, value: JSONValue)]? {
        guard case .object(var members) = self else { return nil }
        guard case .array(let names)? = members.removeValue(forKey: Self.memberOrderKey) else {
            return members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        var seen = Set<String>()
        var ordered: [(key: String, value: JSONValue)] = []
        for case .string(let name) in names where seen.insert(name).inserted {
            if let value = members[name] { ordered.append((name, value)) }
        }
        return ordered
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
