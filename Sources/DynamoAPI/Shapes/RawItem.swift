// The one hand-written response writer: stored item bytes, written unchanged.

/// An item as the engine stores it: its wire JSON (`{"pk":{"S":"a"},…}`), already valid and
/// in DynamoDB's form, so a response copies the bytes instead of decoding and re-encoding them.
///
/// The generated `Raw<Output>` shapes (`RawGetItemOutput`, `RawQueryOutput` …) hold these where
/// the model's output holds attribute maps.
package struct RawItem: Sendable, Hashable, RawEncodable {
    /// The item's JSON object.
    package var bytes: [UInt8]

    /// Wraps stored item bytes (the caller guarantees they are one valid JSON object).
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func encodeRaw(to writer: inout JSONWriter) { writer.writeRaw(bytes) }
}

/// A value of a generated `Raw<Output>` shape: a `RawItem`, a raw shape, or a list or map of them.
package protocol RawEncodable: Sendable {
    /// Writes the value's JSON.
    func encodeRaw(to writer: inout JSONWriter)
}

extension RawEncodable {
    /// The value's JSON bytes.
    package var jsonBytes: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512)
        encodeRaw(to: &writer)
        return writer.bytes
    }
}

extension Array: RawEncodable where Element: RawEncodable {
    package func encodeRaw(to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "["))
        for index in indices {
            if index > startIndex { writer.writeRaw(UInt8(ascii: ",")) }
            self[index].encodeRaw(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "]"))
    }
}

extension Dictionary: RawEncodable where Key == String, Value: RawEncodable {
    /// Writes the members in key order, so an answer's bytes do not depend on hashing.
    package func encodeRaw(to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        for (position, key) in keys.sorted().enumerated() {
            writer.writeKey(key, first: position == 0)
            self[key]!.encodeRaw(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }
}
