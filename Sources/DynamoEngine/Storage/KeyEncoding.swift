import DynamoAPI

/// The scalar types a key attribute may have.
package enum KeyScalarType: String, Codable, Sendable {
    case string = "S"
    case number = "N"
    case binary = "B"

    /// The name DynamoDB uses in messages about key types ("STRING", "NUMBER", "BINARY").
    var wordName: String {
        switch self {
        case .string: "STRING"
        case .number: "NUMBER"
        case .binary: "BINARY"
        }
    }

    /// Whether `value` has this type.
    func matches(_ value: AttributeValue) -> Bool {
        switch (self, value) {
        case (.string, .s), (.number, .n), (.binary, .b): true
        default: false
        }
    }
}

/// Order-preserving byte encodings of key values.
///
/// SQLite compares BLOBs with `memcmp`, so a key stored as these bytes sorts exactly as DynamoDB
/// sorts key values: strings and binary by unsigned bytes, numbers by value. A Query is then one
/// range of the table's primary-key index.
package enum KeyEncoding {
    /// The bytes stored for a key value, or `nil` if the value is not a scalar key type.
    package static func encode(_ value: AttributeValue) -> [UInt8]? {
        switch value {
        case .s(let text): Array(text.utf8)
        case .b(let bytes): bytes
        case .n(let number): number.keyBytes
        default: nil
        }
    }

    /// The key value back from its stored bytes.
    package static func decode(_ bytes: [UInt8], as type: KeyScalarType) -> AttributeValue? {
        switch type {
        case .string: String(validating: bytes, as: UTF8.self).map(AttributeValue.s)
        case .binary: .b(bytes)
        case .number: (try? DynamoNumber(keyBytes: bytes)).map(AttributeValue.n)
        }
    }

    /// The 64-bit position of a partition in the table's hash space.
    ///
    /// Scans walk partitions in this order (as DynamoDB walks its partitions in hash order, not
    /// key order), and a parallel scan's segments are equal slices of this space. The function is
    /// FNV-1a followed by a MurmurHash3 finalizer: stable across runs and platforms, well mixed.
    package static func partitionHash(_ keyBytes: [UInt8], type: KeyScalarType) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        hash = (hash ^ UInt64(type.rawValue.utf8.first!)) &* prime
        for byte in keyBytes { hash = (hash ^ UInt64(byte)) &* prime }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int64(bitPattern: hash)
    }
}
