extension JSONByteReader {
    /// Reads a list of numbers (`{"L":[{"N":"…"},…]}`) as 32-bit floats, each rounded once to
    /// the nearest float as ``DynamoNumber/floatValue`` rounds it, and the list's ``ItemSize``,
    /// without building the list's attribute values: a vector index's backfill reads stored
    /// vectors this way.
    ///
    /// Bails on anything else: another type, an element that is not a number, a number no
    /// finite float holds, whitespace or escapes where stored JSON has none. The caller then
    /// decodes the value the generic way, which finds and words the problem.
    package mutating func floatList() throws(FastDecodeBail) -> (floats: [Float], size: Int) {
        try expect(UInt8(ascii: "{"))
        let type = try rawToken()
        guard type.count == 1, type[0] == UInt8(ascii: "L") else { throw FastDecodeBail() }
        try expect(UInt8(ascii: ":"))
        try expect(UInt8(ascii: "["))
        var floats: [Float] = []
        var size = 3
        if !consume(UInt8(ascii: "]")) {
            repeat {
                try expect(UInt8(ascii: "{"))
                let element = try rawToken()
                guard element.count == 1, element[0] == UInt8(ascii: "N") else { throw FastDecodeBail() }
                try expect(UInt8(ascii: ":"))
                let number = try Self.float(of: rawToken())
                floats.append(number.float)
                size += 1 + number.size
                try expect(UInt8(ascii: "}"))
            } while try continues(before: UInt8(ascii: "]"))
        }
        try expect(UInt8(ascii: "}"))
        return (floats, size)
    }

    /// The float nearest a number's text: digits with an optional sign, fraction and exponent
    /// read in place when at most 15 of them are significant (the text of a stored number, valid
    /// already), anything else through ``DynamoNumber`` (which also validates it); with the
    /// number's ``DynamoNumber/storageSize``.
    static func float(of text: UnsafeRawBufferPointer) throws(FastDecodeBail) -> (float: Float, size: Int) {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var power = 0
        var digits = 0
        var fraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard !fraction else { return try slowFloat(of: text) }
                fraction = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                if mantissa != 0 || byte != UInt8(ascii: "0") {
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                    significant += 1
                    guard significant <= 15 else { return try slowFloat(of: text) }
                }
                if fraction { power -= 1 }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return try slowFloat(of: text) }
        if index < text.count {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return try slowFloat(of: text) }
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9"), exponent < 1_000 {
                exponent = exponent * 10 + Int(text[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index == text.count, index > start else { return try slowFloat(of: text) }
            power += exponentNegative ? -exponent : exponent
        }
        if mantissa == 0 { return (0, 1) }
        guard let float = DynamoNumber.roundedThroughDouble(mantissa: mantissa, power: power) else { return try slowFloat(of: text) }
        return (negative ? -float : float, DynamoNumber.storageSize(mantissa: mantissa, power: power, isNegative: negative))
    }

    /// A number's float through ``DynamoNumber``: its validation and its rounding.
    private static func slowFloat(of text: UnsafeRawBufferPointer) throws(FastDecodeBail) -> (float: Float, size: Int) {
        guard let number = try? DynamoNumber(parsing: String(decoding: text, as: UTF8.self)), let float = number.floatValue else {
            throw FastDecodeBail()
        }
        return (float, number.storageSize)
    }
}
