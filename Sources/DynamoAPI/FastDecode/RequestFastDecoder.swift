/// Decodes the hot request shapes straight from the request bytes, without the `JSONValue` tree,
/// when a request is clean and in a form it knows.
///
/// The generic path parses a body into a `JSONValue` tree and decodes that with validation
/// (``DynamoShape/decodeRequest(_:)``). For a PutItem that tree is about a sixth of the request's
/// instructions and for a BatchWriteItem of 25 items about half. This decoder reads the bytes in
/// one pass and returns the input only when the generic path would return the very same value
/// without an error: every member known and of the right JSON type, no duplicate names, no
/// `null`, every constraint of the model met, every attribute value valid. On anything else it
/// returns `nil` and the caller runs the generic path, so every error, its message and the order
/// of checks stay those of the generic path by construction.
///
/// What is left to the generic path on purpose: unknown members, JSON numbers (but a plain `Limit`)
/// and `null`s, names with escapes, legacy parameters (`Expected`, `ConditionalOperator`,
/// `QueryFilter`; a Query's `KeyConditions` are read), table ARNs, nesting deeper than
/// ``JSONByteReader/maximumValueDepth`` attribute values, and transaction actions of no kind or of
/// more than one (the engine words those).
///
/// ```swift
/// let input = body.withUnsafeBytes { RequestFastDecoder.decode(operation: "PutItem", bytes: $0) }
///     ?? (try PutItemInput.decodeRequest(JSONValue(parsing: body)))
/// ```
public enum RequestFastDecoder {
    /// The operations this decoder reads.
    public static let operations: Set<String> = [
        "PutItem", "BatchWriteItem", "UpdateItem", "TransactWriteItems", "GetItem", "Query",
    ]

    /// The decoded input of `operation` (its name after the target's dot, `PutItem`), or `nil`
    /// when the body must go through the generic path.
    public static func decode(operation: String, bytes: UnsafeRawBufferPointer) -> (any DynamoShape)? {
        switch operation {
        case "PutItem": putItem(bytes)
        case "BatchWriteItem": batchWriteItem(bytes)
        case "UpdateItem": updateItem(bytes)
        case "TransactWriteItems": transactWriteItems(bytes)
        case "GetItem": getItem(bytes)
        case "Query": query(bytes)
        default: nil
        }
    }

    /// A PutItem body as ``PutItemInput``, or `nil` (see the type's rules).
    public static func putItem(_ bytes: UnsafeRawBufferPointer) -> PutItemInput? {
        var reader = JSONByteReader(bytes)
        return try? reader.putItem()
    }

    /// A BatchWriteItem body as ``BatchWriteItemInput``, or `nil` (see the type's rules).
    public static func batchWriteItem(_ bytes: UnsafeRawBufferPointer) -> BatchWriteItemInput? {
        var reader = JSONByteReader(bytes)
        return try? reader.batchWriteItem()
    }

    /// An UpdateItem body as ``UpdateItemInput``, or `nil` (see the type's rules).
    public static func updateItem(_ bytes: UnsafeRawBufferPointer) -> UpdateItemInput? {
        var reader = JSONByteReader(bytes)
        return try? reader.updateItem()
    }

    /// A TransactWriteItems body as ``TransactWriteItemsInput``, or `nil` (see the type's rules).
    public static func transactWriteItems(_ bytes: UnsafeRawBufferPointer) -> TransactWriteItemsInput? {
        var reader = JSONByteReader(bytes)
        return try? reader.transactWriteItems()
    }

    /// Whether `name` passes the `TableName` rule without a violation: 1...255 characters of
    /// `[a-zA-Z0-9_.-]` (an ARN goes the generic way).
    static func isPlainTableName(_ name: String) -> Bool {
        let utf8 = name.utf8
        return !utf8.isEmpty && utf8.count <= 255 && ShapePattern.tableName.matches(name)
    }
}

extension JSONByteReader {
    /// Reads the members of a top-level object, calling `member` with each name; bails on a name
    /// seen twice (`bit` gives each known name its own bit) and on data after the object.
    mutating func topLevelObject(
        _ member: (inout JSONByteReader, UnsafeRawBufferPointer) throws(FastDecodeBail) -> UInt32
    ) throws(FastDecodeBail) {
        try objectMembers(member)
        guard atEnd() else { throw FastDecodeBail() }
    }

    /// Reads the members of an object, calling `member` with each name; bails on a name seen
    /// twice (`bit` gives each known name its own bit).
    mutating func objectMembers(
        _ member: (inout JSONByteReader, UnsafeRawBufferPointer) throws(FastDecodeBail) -> UInt32
    ) throws(FastDecodeBail) {
        try expect(UInt8(ascii: "{"))
        var seen: UInt32 = 0
        if !consume(UInt8(ascii: "}")) {
            repeat {
                let name = try rawToken()
                try expect(UInt8(ascii: ":"))
                let bit = try member(&self, name)
                guard seen & bit == 0 else { throw FastDecodeBail() }
                seen |= bit
            } while try continues(before: UInt8(ascii: "}"))
        }
    }

    /// A string enumeration member that must hold one of the model's values.
    mutating func knownEnum<Value: ShapeEnum>(_: Value.Type) throws(FastDecodeBail) -> Value {
        let value = Value(rawValue: try string())
        guard value.isKnown else { throw FastDecodeBail() }
        return value
    }

    /// A map of strings (`ExpressionAttributeNames`), each value at most 65,535 long.
    mutating func stringMap() throws(FastDecodeBail) -> [String: String] {
        try expect(UInt8(ascii: "{"))
        var map: [String: String] = [:]
        if consume(UInt8(ascii: "}")) { return map }
        repeat {
            let name = try string()
            try expect(UInt8(ascii: ":"))
            let value = try string()
            guard value.utf8.count <= 65535 else { throw FastDecodeBail() }
            if map.updateValue(value, forKey: name) != nil { throw FastDecodeBail() }
        } while try continues(before: UInt8(ascii: "}"))
        return map
    }

    mutating func tableName() throws(FastDecodeBail) -> String {
        let name = try string()
        guard RequestFastDecoder.isPlainTableName(name) else { throw FastDecodeBail() }
        return name
    }
}
