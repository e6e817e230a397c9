/// Decodes request shapes straight from the request bytes, without the `JSONValue` tree, when a
/// request is clean and in a form it knows.
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
/// Every operation of DynamoDB and DynamoDB Streams has a reader, generated with the shapes by
/// `scripts/generate-shapes.py` (`scripts/shape_readers.py`) from the very rules the generic
/// decoder is generated with: `Generated/RequestFastDecoder+Operations.swift` maps an operation
/// to its input's `fastDecode(_:)`, and each structure has a `JSONByteReader.read<Shape>()`.
///
/// What is left to the generic path on purpose: unknown members, JSON numbers (but a plain `Limit`)
/// and `null`s, timestamps and binary members, names with escapes, table ARNs, and nesting deeper
/// than ``JSONByteReader/maximumValueDepth`` attribute values.
///
/// ```swift
/// let input = body.withUnsafeBytes { RequestFastDecoder.decode(operation: "PutItem", bytes: $0) }
///     ?? (try PutItemInput.decodeRequest(JSONValue(parsing: body)))
/// ```
public enum RequestFastDecoder {
    /// Whether `name` passes the `TableName` rule without a violation: 1...255 characters of
    /// `[a-zA-Z0-9_.-]` (an ARN goes the generic way).
    static func isPlainTableName(_ name: String) -> Bool {
        let utf8 = name.utf8
        return !utf8.isEmpty && utf8.count <= 255 && ShapePattern.tableName.matches(name)
    }
}

extension JSONByteReader {
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

    /// A `TableName` that is a plain table name (1...255 characters of `[a-zA-Z0-9_.-]`); bails
    /// on an ARN, which the generic path checks against its own rule.
    mutating func tableName() throws(FastDecodeBail) -> String {
        let name = try string()
        guard RequestFastDecoder.isPlainTableName(name) else { throw FastDecodeBail() }
        return name
    }

    /// A string of `length` UTF-16 units (Java's measure, as ``ValueRules`` counts them) that
    /// `pattern` matches, if one is given.
    mutating func string(length: ClosedRange<Int>, pattern: ShapePattern? = nil) throws(FastDecodeBail) -> String {
        let value = try string()
        guard length.contains(value.utf16.count) else { throw FastDecodeBail() }
        if let pattern, !pattern.matches(value) { throw FastDecodeBail() }
        return value
    }

    /// A string that `pattern` matches.
    mutating func string(pattern: ShapePattern) throws(FastDecodeBail) -> String {
        let value = try string()
        guard pattern.matches(value) else { throw FastDecodeBail() }
        return value
    }

    /// A Java `Integer` in `range` written as plain digits (a `Limit`); bails on a sign, a leading
    /// zero, a fraction, an exponent and a value past `Int32.max`.
    mutating func javaInteger(in range: ClosedRange<Int>) throws(FastDecodeBail) -> Int {
        let digits = try digitsToken()
        guard digits[0] != UInt8(ascii: "0"), digits.count <= 10 else { throw FastDecodeBail() }
        var value = 0
        for digit in digits { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        guard value <= Int(Int32.max), range.contains(value) else { throw FastDecodeBail() }
        return value
    }
}
