extension DynamoNumber {
    /// The exact sum, as `SET a = a + :v` and `ADD` compute it.
    ///
    /// DynamoDB never rounds: a sum that needs more than 38 significant digits is refused, and so
    /// is one whose magnitude is out of range. It answers all of these with its overflow message,
    /// even when the real trouble is precision (`1E+50 + 1`) or a magnitude too small.
    ///
    /// - Throws: `DynamoError` `ValidationException` "Number overflow. Attempting to store a
    ///   number with magnitude larger than supported range" when the result cannot be stored.
    ///
    /// ```swift
    /// try DynamoNumber(parsing: "0.1") + DynamoNumber(parsing: "0.2")   // 0.3
    /// ```
    public static func + (lhs: DynamoNumber, rhs: DynamoNumber) throws(DynamoError) -> DynamoNumber {
        if lhs.isZero { return rhs }
        if rhs.isZero { return lhs }

        // Both values as little-endian digit arrays over the powers low...high; one spare power
        // on top holds a carry.
        let low = min(lhs.lowestPower, rhs.lowestPower)
        let high = max(lhs.exponent, rhs.exponent) + 1
        var left = lhs.spread(from: low, through: high)
        let right = rhs.spread(from: low, through: high)

        let isNegative: Bool
        if lhs.isNegative == rhs.isNegative {
            isNegative = lhs.isNegative
            var carry: UInt8 = 0
            for power in left.indices {
                let sum = left[power] + right[power] + carry
                left[power] = sum % 10
                carry = sum / 10
            }
        } else {
            let order = compareMagnitudes(lhs, rhs)
            if order == 0 { return .zero }
            // Subtract the smaller magnitude from the larger; the result takes the larger's sign.
            var difference = order > 0 ? left : right
            let smaller = order > 0 ? right : left
            isNegative = order > 0 ? lhs.isNegative : rhs.isNegative
            var borrow: UInt8 = 0
            for power in difference.indices {
                let subtrahend = smaller[power] + borrow
                if difference[power] >= subtrahend {
                    difference[power] -= subtrahend
                    borrow = 0
                } else {
                    difference[power] = difference[power] + 10 - subtrahend
                    borrow = 1
                }
            }
            left = difference
        }

        guard let top = left.lastIndex(where: { $0 != 0 }),
            let bottom = left.firstIndex(where: { $0 != 0 })
        else { return .zero }
        let exponent = low + top
        let digits = Array(left[bottom...top].reversed())
        if exponent > maxExponent || exponent < minExponent || digits.count > maxDigits {
            throw .validation(Message.overflow)
        }
        return DynamoNumber(isNegative: isNegative, digits: digits, exponent: exponent)
    }

    /// The exact difference, with the same limits and message as `+`.
    ///
    /// - Throws: `DynamoError` `ValidationException` "Number overflow. …" when the result cannot
    ///   be stored.
    ///
    /// ```swift
    /// try DynamoNumber(parsing: "1E+22") - DynamoNumber(1)   // 9999999999999999999999
    /// ```
    public static func - (lhs: DynamoNumber, rhs: DynamoNumber) throws(DynamoError) -> DynamoNumber {
        try lhs + (-rhs)
    }

    /// The number with the opposite sign; zero stays zero.
    ///
    /// ```swift
    /// -DynamoNumber(5)   // -5
    /// ```
    public static prefix func - (operand: DynamoNumber) -> DynamoNumber {
        DynamoNumber(isNegative: !operand.isNegative, digits: operand.digits, exponent: operand.exponent)
    }

    /// The power of ten of the last significant digit.
    var lowestPower: Int { exponent - digits.count + 1 }

    /// The digits as an array indexed by `power - low`, for the powers `low...high`.
    func spread(from low: Int, through high: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: high - low + 1)
        for (offset, digit) in digits.enumerated() {
            result[exponent - offset - low] = digit
        }
        return result
    }
}
