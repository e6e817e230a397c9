extension DynamoNumber {
    /// Tag bytes: negative numbers sort before zero, zero before positive numbers.
    private enum KeyTag {
        static let negative: UInt8 = 0x01
        static let zero: UInt8 = 0x02
        static let positive: UInt8 = 0x03
    }

    /// An order-preserving byte encoding of the value, for storing number keys.
    ///
    /// Comparing two encodings with `memcmp` (unsigned bytes, a prefix first) orders them as the
    /// numbers they encode, and equal numbers (`1`, `1.0`, `10E-1`) encode to identical bytes.
    /// No encoding is a prefix of another, so encodings may be concatenated with other fields.
    ///
    /// Layout: zero is the single byte `0x02`. Otherwise a tag (`0x01` negative, `0x03`
    /// positive), the exponent of the first digit plus 130 in one byte, the digits in pairs from
    /// the first one (the last pair padded with a zero) one byte per pair, and a terminator. A
    /// positive number stores pair `p` as `p + 1` and ends with `0x00`; a negative number stores
    /// the exponent byte as `255 - byte`, pair `p` as `0xFE - p`, and ends with `0xFF`, so that a
    /// larger magnitude sorts lower. At most 22 bytes.
    ///
    /// ```swift
    /// DynamoNumber(-1).keyBytes.lexicographicallyPrecedes(DynamoNumber(0).keyBytes)   // true
    /// ```
    public var keyBytes: [UInt8] {
        guard !isZero else { return [KeyTag.zero] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 + (digits.count + 1) / 2)
        let exponentByte = UInt8(exponent - Self.minExponent)
        bytes.append(isNegative ? KeyTag.negative : KeyTag.positive)
        bytes.append(isNegative ? 0xFF - exponentByte : exponentByte)
        for start in stride(from: 0, to: digits.count, by: 2) {
            let pair = digits[start] * 10 + (start + 1 < digits.count ? digits[start + 1] : 0)
            bytes.append(isNegative ? 0xFE - pair : pair + 1)
        }
        bytes.append(isNegative ? 0xFF : 0x00)
        return bytes
    }

    /// Decodes bytes written by `keyBytes`.
    ///
    /// Decoding is strict: bytes that `keyBytes` could not have produced are refused, so a value
    /// read back always re-encodes to the same bytes.
    ///
    /// - Parameter keyBytes: An encoding produced by `keyBytes`, typically read from storage.
    /// - Throws: `DynamoError` `InternalServerError` when the bytes are not such an encoding
    ///   (corrupt storage; never the client's fault).
    ///
    /// ```swift
    /// let n = try DynamoNumber(keyBytes: DynamoNumber(42).keyBytes)   // 42
    /// ```
    public init(keyBytes: some Collection<UInt8>) throws(DynamoError) {
        let bytes = Array(keyBytes)
        let corrupt = AttributeValueMessages.storedNumberKeyCorrupt
        guard let tag = bytes.first else { throw corrupt }
        if tag == KeyTag.zero {
            guard bytes.count == 1 else { throw corrupt }
            self = .zero
            return
        }
        guard tag == KeyTag.negative || tag == KeyTag.positive else { throw corrupt }
        let isNegative = tag == KeyTag.negative
        let pairCount = bytes.count - 3
        guard pairCount >= 1, pairCount <= (Self.maxDigits + 1) / 2,
            bytes[bytes.count - 1] == (isNegative ? 0xFF : 0x00)
        else { throw corrupt }

        let exponentByte = isNegative ? 0xFF - bytes[1] : bytes[1]
        var digits: [UInt8] = []
        digits.reserveCapacity(2 * pairCount)
        for byte in bytes[2..<(bytes.count - 1)] {
            let pair: UInt8
            if isNegative {
                guard byte <= 0xFE, byte >= 0xFE - 99 else { throw corrupt }
                pair = 0xFE - byte
            } else {
                guard byte >= 1, byte <= 100 else { throw corrupt }
                pair = byte - 1
            }
            digits.append(pair / 10)
            digits.append(pair % 10)
        }
        // Only the last pair may carry a padding zero; a normalized number has no other
        // leading or trailing zeros.
        if digits[digits.count - 1] == 0 { digits.removeLast() }
        guard digits[0] != 0, digits[digits.count - 1] != 0 else { throw corrupt }
        self.init(isNegative: isNegative, digits: digits, exponent: Int(exponentByte) + Self.minExponent)
    }
}
