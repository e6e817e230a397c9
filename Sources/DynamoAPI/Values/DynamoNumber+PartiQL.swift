extension DynamoNumber {
    /// Why a number of a PartiQL statement (a literal or a parameter) is refused.
    package enum PartiQLProblem: Error, Equatable {
        /// The text is not a number PartiQL can read at all (not decimal syntax, an exponent
        /// outside a 32-bit integer, a scale that does not fit one).
        case unconvertible
        /// A number that reads but breaks DynamoDB's number rules (overflow, underflow, more
        /// than 38 significant digits): the item layer's message.
        case invalid(DynamoError)
    }

    /// Reads a number as DynamoDB's PartiQL front end does: as Java's `BigDecimal` reads a
    /// string, then DynamoDB's range check.
    ///
    /// The exponent must fit a 32-bit integer and so must the scale (the fraction digits less
    /// the exponent), else the text cannot be converted: `1e2147483648`, `1e-2147483648` and
    /// `1.5e-2147483647` all fail so. The magnitude is checked on precision minus scale in
    /// 32-bit arithmetic, which wraps, so `1e2147483647` is an underflow (measured against the
    /// service, eu-west-2 and us-east-1, October 2026). Within those bounds the rules are the
    /// item layer's (``init(parsing:)``).
    ///
    /// ```swift
    /// try DynamoNumber(partiQL: "7.31e6")          // 7310000
    /// try DynamoNumber(partiQL: "1e2147483647")    // throws .invalid(Number underflow. …)
    /// try DynamoNumber(partiQL: "1e99999999999")   // throws .unconvertible
    /// ```
    package init(partiQL text: String) throws(PartiQLProblem) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, let literal = Literal(bytes), !literal.exponentTooLong,
            let exponent = Int32(exactly: literal.exponent),
            let scale = Int32(exactly: Int64(literal.fraction.count) - Int64(exponent))
        else { throw .unconvertible }
        // BigDecimal's precision: the digits of the unscaled value, leading zeros dropped (1 for zero).
        let written = literal.integer.count + literal.fraction.count
        var leadingZeros = 0
        for index in Array(literal.integer) + Array(literal.fraction) {
            guard bytes[index] == UInt8(ascii: "0") else { break }
            leadingZeros += 1
        }
        let precision = max(written - leadingZeros, 1)
        let magnitude = Int32(truncatingIfNeeded: Int64(precision) - Int64(scale))
        if magnitude > Int32(Self.maxExponent + 1) { throw .invalid(.validation(Message.overflow)) }
        if magnitude < Int32(Self.minExponent + 1) { throw .invalid(.validation(Message.underflow)) }
        do {
            self = try literal.number(bytes)
        } catch {
            throw .invalid(error)
        }
    }

    /// DynamoDB's message for a PartiQL parameter whose number cannot be converted:
    /// "The parameter cannot be converted to a numeric value: <text>", with nothing after the
    /// sentence for an empty text.
    package static func unconvertibleParameter(_ text: String) -> DynamoError {
        .validation(text.isEmpty ? Message.empty : Message.unparseable(text))
    }
}
