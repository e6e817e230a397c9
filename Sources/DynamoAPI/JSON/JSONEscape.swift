/// The pieces of JSON string escapes that `JSONParser` and `JSONByteReader` share.
enum JSONEscape {
    /// The byte a one-character escape (`\n`, `\"`, …) stands for; `nil` for `u` and for
    /// anything that is not an escape.
    @inline(__always)
    static func simple(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of one hexadecimal digit of a `\u` escape.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Why a `\u` escape is not a character, in `JSONParser`'s words.
    enum UnicodeEscapeError: String, Error {
        /// Fewer than four hexadecimal digits.
        case invalid = "Invalid unicode escape"
        /// A high surrogate not followed by an escaped low one, or a low surrogate alone.
        case unpairedSurrogate = "Unpaired surrogate"
    }

    /// Decodes the `\u` escape whose four hexadecimal digits start at `index` (just after the
    /// `\u`) and appends its character as UTF-8 to `buffer`. A high surrogate must be followed by
    /// the escape of a low one, and the two are joined into one scalar (`\uD83D\uDE00` is 😀).
    ///
    /// On success `index` is just after the escape; on failure it is where the reading stopped
    /// (the offset `JSONParser` reports).
    static func appendUnicodeEscape<Bytes: RandomAccessCollection<UInt8>>(
        from bytes: Bytes, at index: inout Int, to buffer: inout [UInt8]
    ) throws(UnicodeEscapeError) where Bytes.Index == Int {
        var scalar = try hex4(bytes, at: &index)
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 6 <= bytes.endIndex, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw .unpairedSurrogate }
            index += 2
            let low = try hex4(bytes, at: &index)
            guard (0xDC00...0xDFFF).contains(low) else { throw .unpairedSurrogate }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw .unpairedSurrogate
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw .invalid }
        UTF8.encode(unicode) { buffer.append($0) }
    }

    /// The value of the four hexadecimal digits at `index`, moving `index` past them.
    private static func hex4<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: inout Int
    ) throws(UnicodeEscapeError) -> UInt32 where Bytes.Index == Int {
        guard index + 4 <= bytes.endIndex else { throw .invalid }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[index]) else { throw .invalid }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
