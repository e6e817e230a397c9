/// Why ``JSONByteReader`` stopped: the bytes are not in a form the fast decoder takes on.
///
/// Carries nothing on purpose: the caller hands the request (or answer) to the generic path,
/// which finds and words the actual problem (if there is one).
package struct FastDecodeBail: Error {}

/// A forward-only reader of JSON text over bytes, for the server's ``RequestFastDecoder`` and
/// the client's answer decoder (which reads the attribute values of Query's `Items`, GetItem's
/// `Item`, … with it).
///
/// Reads exactly the grammar of `JSONParser` (RFC 8259, the same escapes, the same UTF-8 rule)
/// but only the parts the fast decoder asks for, in the order it asks; anything else — a JSON
/// number, `null`, an unexpected character, an invalid string — throws ``FastDecodeBail``.
/// Strings come out as the generic parser makes them: escapes undone, validated as UTF-8.
///
/// The reader borrows the bytes: use it only inside the `withUnsafeBytes` that made them.
package struct JSONByteReader {
    /// The bytes read (internal, not private, for the extensions in other files).
    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    var index = 0

    /// A reader of `bytes` from their start.
    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether only whitespace is left.
    package mutating func atEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Skips whitespace and consumes `byte`, or bails.
    @inline(__always)
    package mutating func expect(_ byte: UInt8) throws(FastDecodeBail) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw FastDecodeBail() }
        index += 1
    }

    /// Skips whitespace and consumes `byte` if it is next.
    @inline(__always)
    package mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// After a member or element: `true` for a `,` (another follows), `false` for `close`.
    @inline(__always)
    package mutating func continues(before close: UInt8) throws(FastDecodeBail) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw FastDecodeBail() }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == close else { throw FastDecodeBail() }
        return false
    }

    /// Reads `true` or `false`.
    mutating func boolean() throws(FastDecodeBail) -> Bool {
        skipWhitespace()
        if matches("true") { index += 4; return true }
        if matches("false") { index += 5; return false }
        throw FastDecodeBail()
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        return true
    }

    /// Reads a JSON number written as digits only (no sign, fraction or exponent) as raw bytes,
    /// at least one; bails on any other number.
    mutating func digitsToken() throws(FastDecodeBail) -> UnsafeRawBufferPointer {
        skipWhitespace()
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > start else { throw FastDecodeBail() }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw FastDecodeBail()
            default: break
            }
        }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
    }

    /// Reads a member name or short token without escapes as raw bytes (the type names of an
    /// attribute value, the request's member names); bails on an escape.
    mutating func rawToken() throws(FastDecodeBail) -> UnsafeRawBufferPointer {
        // Escapes, control characters and non-ASCII never spell a name we know.
        try unescapedString(below: 0x80)
    }

    /// Reads a string without escapes as its raw UTF-8 bytes (a stored item's member name, to
    /// compare with the names a caller looks for); bails on an escape or a control character.
    package mutating func unescapedString() throws(FastDecodeBail) -> UnsafeRawBufferPointer {
        try unescapedString(below: 0x100)
    }

    /// A string's raw bytes, bailing on an escape, a control character or a byte from `limit` up.
    private mutating func unescapedString(below limit: Int) throws(FastDecodeBail) -> UnsafeRawBufferPointer {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let token = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return token
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || Int(byte) >= limit { throw FastDecodeBail() }
            index += 1
        }
        throw FastDecodeBail()
    }

    /// Reads a JSON string as `JSONParser` does: escapes undone, UTF-8 validated.
    package mutating func string() throws(FastDecodeBail) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else { throw FastDecodeBail() }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw FastDecodeBail() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        guard index < bytes.count else { throw FastDecodeBail() }
        return try escapedString(from: start)
    }

    /// The rest of a string that holds an escape, from `start` (just after the opening quote).
    private mutating func escapedString(from start: Int) throws(FastDecodeBail) -> String {
        var buffer: [UInt8] = []
        // Room for a usual string at once (escapes only shorten it; a long one grows as it goes).
        buffer.reserveCapacity(min(bytes.count - start, 1024))
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            // Plain bytes up to the next quote, backslash or control byte, appended as one run.
            let run = index
            while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""),
                bytes[index] != UInt8(ascii: "\\")
            {
                index += 1
            }
            if index > run { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index])) }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else { throw FastDecodeBail() }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw FastDecodeBail() }
                let escape = bytes[index]
                index += 1
                if let byte = JSONEscape.simple(escape) {
                    buffer.append(byte)
                } else if escape == UInt8(ascii: "u") {
                    try appendUnicodeEscape(to: &buffer)
                } else {
                    throw FastDecodeBail()
                }
            default:
                // A control byte (the run stops at nothing else).
                throw FastDecodeBail()
            }
        }
        throw FastDecodeBail()
    }

    private mutating func appendUnicodeEscape(to buffer: inout [UInt8]) throws(FastDecodeBail) {
        do {
            try JSONEscape.appendUnicodeEscape(from: bytes, at: &index, to: &buffer)
        } catch {
            throw FastDecodeBail()
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes spell `text` (an ASCII token).
    func spells(_ text: StaticString) -> Bool {
        guard count == text.utf8CodeUnitCount else { return false }
        for offset in 0..<count where self[offset] != text.utf8Start[offset] { return false }
        return true
    }
}
