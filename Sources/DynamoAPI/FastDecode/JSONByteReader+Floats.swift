extension JSONByteReader {
    /// Reads a list of numbers (`{"L":[{"N":"…"},…]}`) as 32-bit floats, each rounded once to
    /// the nearest float as ``DynamoNumber/floatValue`` rounds it, and the list's ``ItemSize``,
    /// without building the list's attribute values: a vector index's backfill reads stored
    /// vectors this way.
    ///
    /// An element spelled as stored JSON spells it (`{"N":"…"}`, no whitespace) is read in one
    /// pass over its bytes; any other spelling token by token. Bails on anything else: another
    /// type, an element that is not a number, a number no finite float holds, escapes. The
    /// caller then decodes the value the generic way, which finds and words the problem.
    ///
    /// - Parameter expected: the length the list most likely has (a vector index's dimensions):
    ///   the floats are allocated once for it.
    package mutating func floatList(expected: Int = 0) throws(FastDecodeBail) -> (floats: [Float], size: Int) {
        try expect(UInt8(ascii: "{"))
        let type = try rawToken()
        guard type.count == 1, type[0] == UInt8(ascii: "L") else { throw FastDecodeBail() }
        try expect(UInt8(ascii: ":"))
        try expect(UInt8(ascii: "["))
        var floats: [Float] = []
        floats.reserveCapacity(expected)
        var size = 3
        if !consume(UInt8(ascii: "]")) {
            repeat {
                let number: (float: Float, size: Int)
                if let compact = try compactNumberElement() { number = compact } else { number = try numberElement() }
                floats.append(number.float)
                size += 1 + number.size
            } while try continues(before: UInt8(ascii: "]"))
        }
        try expect(UInt8(ascii: "}"))
        return (floats, size)
    }

    /// `{"N":"<number>"}` token by token (whitespace allowed between them).
    private mutating func numberElement() throws(FastDecodeBail) -> (float: Float, size: Int) {
        try expect(UInt8(ascii: "{"))
        let element = try rawToken()
        guard element.count == 1, element[0] == UInt8(ascii: "N") else { throw FastDecodeBail() }
        try expect(UInt8(ascii: ":"))
        let number = try Self.float(of: rawToken())
        try expect(UInt8(ascii: "}"))
        return number
    }

    /// The element at the reader's position when it is spelled exactly `{"N":"<number>"}`, read
    /// in one pass; `nil` (nothing consumed) for any other spelling.
    @inline(__always)
    private mutating func compactNumberElement() throws(FastDecodeBail) -> (float: Float, size: Int)? {
        // `{"N":"` is 6 bytes; the shortest element, `{"N":"0"}`, 9.
        guard index + 9 <= bytes.count, bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "\""),
            bytes[index + 2] == UInt8(ascii: "N"), bytes[index + 3] == UInt8(ascii: "\""), bytes[index + 4] == UInt8(ascii: ":"),
            bytes[index + 5] == UInt8(ascii: "\"")
        else { return nil }
        let start = index + 6
        let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
        if let number = Self.leadingFloat(of: rest), number.length + 1 < rest.count, rest[number.length] == UInt8(ascii: "\""),
            rest[number.length + 1] == UInt8(ascii: "}")
        {
            index = start + number.length + 2
            return (number.float, number.size)
        }
        // A number the one pass does not take (more digits, a midpoint): its text, the careful way.
        guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")), quote + 1 < rest.count, rest[quote + 1] == UInt8(ascii: "}") else {
            return nil
        }
        let number = try Self.float(of: UnsafeRawBufferPointer(rebasing: rest[..<quote]))
        index = start + quote + 2
        return number
    }

    /// The float nearest a number's text: digits with an optional sign, fraction and exponent
    /// read in place when at most 15 of them are significant (the text of a stored number, valid
    /// already), anything else through ``DynamoNumber`` (which also validates it); with the
    /// number's ``DynamoNumber/storageSize``.
    static func float(of text: UnsafeRawBufferPointer) throws(FastDecodeBail) -> (float: Float, size: Int) {
        if let number = leadingFloat(of: text), number.length == text.count { return (number.float, number.size) }
        return try slowFloat(of: text)
    }

    /// The number at the start of `text` read in one pass (``float(of:)``'s fast path), with its
    /// ``DynamoNumber/storageSize`` and the bytes it took; `nil` when that pass cannot say (more
    /// than 15 significant digits, no digits, a `Double` on a midpoint between two floats …).
    @inline(__always)
    static func leadingFloat(of text: UnsafeRawBufferPointer) -> (float: Float, size: Int, length: Int)? {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        // Zeros after the last non-zero significant digit (for the storage size).
        var trailingZeros = 0
        var power = 0
        var digits = 0
        var fraction = false
        while index < text.count {
            let byte = text[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                digits += 1
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significant += 1
                    guard significant <= 15 else { return nil }
                    trailingZeros = digit == 0 ? trailingZeros + 1 : 0
                }
                if fraction { power -= 1 }
            } else if byte == UInt8(ascii: ".") {
                guard !fraction else { return nil }
                fraction = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            let start = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10, exponent < 1_000 {
                exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > start else { return nil }
            power += exponentNegative ? -exponent : exponent
        }
        if mantissa == 0 { return (0, 1, index) }
        guard let float = DynamoNumber.roundedThroughDouble(mantissa: mantissa, power: power) else { return nil }
        let lowest = power + trailingZeros
        let size = DynamoNumber.storageSize(exponent: lowest + significant - trailingZeros - 1, lowest: lowest, isNegative: negative)
        return (negative ? -float : float, size, index)
    }

    /// A number's float through ``DynamoNumber``: its validation and its rounding.
    private static func slowFloat(of text: UnsafeRawBufferPointer) throws(FastDecodeBail) -> (float: Float, size: Int) {
        guard let number = try? DynamoNumber(parsing: String(decoding: text, as: UTF8.self)), let float = number.floatValue else {
            throw FastDecodeBail()
        }
        return (float, number.storageSize)
    }
}
