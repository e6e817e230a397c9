extension DynamoNumber {
    /// Powers of ten a `Double` holds exactly.
    private static let exactPowers: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    /// The number rounded to the nearest 32-bit float, or `nil` when no finite float holds it
    /// (a vector index's view of a vector element).
    ///
    /// Numbers of up to 15 significant digits within 10^±22 of an integer are converted with one
    /// exact-operand `Double` multiplication or division (correctly rounded) and then rounded to
    /// `Float`; others through their decimal text.
    ///
    /// ```swift
    /// try DynamoNumber(parsing: "0.25").floatValue   // 0.25
    /// try DynamoNumber(parsing: "1e39").floatValue   // nil
    /// ```
    package var floatValue: Float? {
        guard !isZero else { return 0 }
        // The magnitude; the sign is applied last (the text of a negative number carries its own).
        let float: Float
        if digits.count <= 15 {
            var mantissa = 0.0
            for digit in digits { mantissa = mantissa * 10 + Double(digit) }
            let power = exponent - digits.count + 1
            if power >= 0, power < Self.exactPowers.count {
                float = Float(mantissa * Self.exactPowers[power])
            } else if power < 0, -power < Self.exactPowers.count {
                float = Float(mantissa / Self.exactPowers[-power])
            } else {
                float = Self.magnitude(of: description)
            }
        } else {
            float = Self.magnitude(of: description)
        }
        guard float.isFinite else { return nil }
        return isNegative ? -float : float
    }

    /// The magnitude of a number's decimal text as a float (infinity when too large).
    private static func magnitude(of text: String) -> Float {
        (Float(text) ?? .infinity).magnitude
    }
}
