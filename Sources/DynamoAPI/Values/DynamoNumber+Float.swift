extension DynamoNumber {
    /// Powers of ten a `Double` holds exactly (a literal, so no lazy initialization on each use).
    private static let exactPowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The number rounded to the nearest 32-bit float, or `nil` when no finite float holds it
    /// (a vector index's view of a vector element).
    ///
    /// Numbers of up to 15 significant digits within 10^±22 of an integer are first rounded to a
    /// `Double` with one exact-operand multiplication or division, then to `Float`. Rounding twice
    /// can only go wrong when the `Double` lands exactly on the midpoint of two floats (from a
    /// decimal next to it, such as a 12-digit one): those, and every other number, go through
    /// their decimal text, rounded once.
    ///
    /// ```swift
    /// try DynamoNumber(parsing: "0.25").floatValue   // 0.25
    /// try DynamoNumber(parsing: "1e39").floatValue   // nil
    /// ```
    package var floatValue: Float? {
        guard !isZero else { return 0 }
        // The magnitude; the sign is applied last (the text of a negative number carries its own).
        let float = Self.roundedThroughDouble(digits: digits, exponent: exponent) ?? Self.magnitude(of: description)
        guard float.isFinite else { return nil }
        return isNegative ? -float : float
    }

    /// The float nearest `0.d₁d₂… × 10^(exponent + 1)` through one `Double` operation, or `nil`
    /// when that cannot be done exactly once (too many digits, a power of ten no `Double`
    /// holds, or a `Double` on a midpoint between two floats).
    private static func roundedThroughDouble(digits: [UInt8], exponent: Int) -> Float? {
        guard digits.count <= 15 else { return nil }
        var mantissa: UInt64 = 0
        for digit in digits { mantissa = mantissa * 10 + UInt64(digit) }
        return roundedThroughDouble(mantissa: mantissa, power: exponent - digits.count + 1)
    }

    /// The float nearest `mantissa × 10^power` (a mantissa of at most 15 decimal digits) through
    /// one `Double` operation, or `nil` when that cannot be done exactly once (a power of ten no
    /// `Double` holds, or a `Double` on a midpoint between two floats). Shared with
    /// ``JSONByteReader/floatList(expected:)``, which reads stored vectors without building numbers.
    package static func roundedThroughDouble(mantissa: UInt64, power: Int) -> Float? {
        let mantissa = Double(mantissa)
        let value: Double
        if power >= 0, power < exactPowers.count {
            value = mantissa * exactPowers[power]
        } else if power < 0, -power < exactPowers.count {
            value = mantissa / exactPowers[-power]
        } else {
            return nil
        }
        let float = Float(value)
        // A mantissa of 1…15 digits times 10^±22 lies between 1e-22 and 1e37: a normal float.
        guard float.isNormal else { return nil }
        // `value` is on the midpoint of two floats exactly when the 29 low significand bits a
        // normal float drops are 1 followed by zeros: only then may rounding twice differ from
        // rounding once.
        guard value.bitPattern & 0x1FFF_FFFF != 0x1000_0000 else { return nil }
        return float
    }

    /// The magnitude of a number's decimal text as a float (infinity when too large).
    private static func magnitude(of text: String) -> Float {
        (Float(text) ?? .infinity).magnitude
    }
}
