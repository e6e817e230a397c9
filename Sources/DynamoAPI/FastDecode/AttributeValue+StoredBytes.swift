extension AttributeValue {
    /// Decodes an item from its wire JSON bytes (a stored item), giving exactly what
    /// `decodeItem(JSONValue(parsing: bytes))` gives, errors included, without building the
    /// `JSONValue` tree when the bytes are in the form ``JSONByteReader`` reads (as every item the
    /// engine stores is: written by `encode(item:to:)`).
    ///
    /// Anything the byte reader does not take (a `null` member, a duplicate name, deep nesting,
    /// invalid JSON) goes the generic way, so the result and every error stay the generic path's.
    ///
    /// ```swift
    /// let item = try AttributeValue.decodeItem(bytes: Array(#"{"pk":{"S":"a"}}"#.utf8))
    /// ```
    ///
    /// - Throws: `JSONParseError` for bytes that are not JSON, `DynamoError` for JSON that is not
    ///   an item, as the generic path does.
    package static func decodeItem(bytes: [UInt8]) throws -> Item {
        let read: Item? = bytes.withUnsafeBytes { buffer in
            var reader = JSONByteReader(buffer)
            guard let item = try? reader.attributeMap(), reader.atEnd() else { return nil }
            return item
        }
        if let read { return read }
        return try decodeItem(JSONValue(parsing: bytes))
    }
}
