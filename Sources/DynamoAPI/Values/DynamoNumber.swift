/// DynamoDB's Number type: an exact decimal of up to 38 significant digits.
///
/// A non-zero number's magnitude lies between `1E-130` and
/// `9.9999999999999999999999999999999999999E+125`. Values are kept normalized (no leading or
/// trailing zeros, no negative zero), so `==` and `hashValue` compare numeric values:
/// `1`, `1.0` and `10E-1` are the same number.
///
/// ```swift
/// let price = try DynamoNumber(parsing: "+0012.50")
/// print(price)                                // 12.5
/// print(try price + DynamoNumber(1))          // 13.5
/// print(try DynamoNumber(parsing: "1e3"))     // 1000
/// ```
///
/// Parsing, arithmetic and error messages follow what DynamoDB itself does; see
/// `init(parsing:)` and `+`.
public struct DynamoNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whether the value is below zero; never true for zero.
    let isNegative: Bool
    /// The significant digits (each 0...9), most significant first, with no leading or trailing
    /// zeros: 1...38 of them, or none for zero.
    let digits: [UInt8]
    /// The power of ten of the first digit (`digits[0] × 10^exponent`), -130...125; 0 for zero.
    let exponent: Int

    /// Builds a number from parts that are already normalized and in range.
    init(isNegative: Bool, digits: [UInt8], exponent: Int) {
        self.isNegative = isNegative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// Zero.
    static let zero = DynamoNumber(isNegative: false, digits: [], exponent: 0)

    /// The largest power of ten a first digit may have.
    static let maxExponent = 125
    /// The smallest power of ten a first digit may have.
    static let minExponent = -130
    /// The most significant digits a number may carry.
    static let maxDigits = 38

    /// DynamoDB's messages about numbers, word for word.
    enum Message {
        /// The sentence for a number string that cannot be read.
        static let empty = "The parameter cannot be converted to a numeric value"
        /// A number string that is not a decimal number.
        static func unparseable(_ text: String) -> String { "\(empty): \(text)" }
        /// More than 38 significant digits.
        static let tooPrecise = "Attempting to store more than 38 significant digits in a Number"
        /// A magnitude above the range; also DynamoDB's answer for any arithmetic result it cannot store.
        static let overflow =
            "Number overflow. Attempting to store a number with magnitude larger than supported range"
        /// A non-zero magnitude below the range.
        static let underflow =
            "Number underflow. Attempting to store a number with magnitude smaller than supported range"
    }

    /// Parses a number as DynamoDB accepts it in an `N` (or `NS`) attribute value.
    ///
    /// The grammar is `[+-] (digits [. [digits]] | . digits) [(e|E) [+-] digits]`: a leading `+`,
    /// leading zeros, `.5`, `5.` and `1.e5` are accepted; whitespace anywhere, `NaN`, `Infinity`,
    /// a bare `.` and an exponent without digits are not. Leading and trailing zeros are not
    /// significant, so `1.000…0` and `100…0` may be written with any number of zeros.
    ///
    /// Zero is range-checked by the exponent it is written with, as DynamoDB does: `0e125` is
    /// zero, `0e126` overflows and `0e-131` underflows.
    ///
    /// - Parameter text: The number as sent, for example `"-12.5"`, `"1E+3"` or `"0001.20"`.
    /// - Throws: `DynamoError` `ValidationException` with DynamoDB's message:
    ///   "The parameter cannot be converted to a numeric value" (empty text; followed by
    ///   `": <text>"` for text that is not a number or whose exponent does not fit 64 bits),
    ///   "Number overflow. …", "Number underflow. …" (magnitude out of range, checked first), or
    ///   "Attempting to store more than 38 significant digits in a Number".
    ///
    /// ```swift
    /// try DynamoNumber(parsing: "-0.50").description   // "-0.5"
    /// ```
    public init(parsing text: String) throws(DynamoError) {
        let bytes = Array(text.utf8)
        // An empty string gets the colon-less sentence, in both wordings: the newest recordings
        // (2026-10) show it so, where us-east-1's capture of 2026-08-12 had `…numeric value: `
        // (docs/compatibility.md lists the conflict).
        guard !bytes.isEmpty else { throw .validation(Message.empty) }
        guard let literal = Literal(bytes) else { throw .validation(Message.unparseable(text)) }
        self = try literal.number(bytes)
    }

    /// The number with the value of an integer.
    ///
    /// Every `Int` has at most 19 digits, so this cannot fail.
    ///
    /// ```swift
    /// DynamoNumber(-1200).description   // "-1200"
    /// ```
    public init(_ value: Int) {
        var magnitude = value.magnitude
        var reversed: [UInt8] = [] // least significant first
        while magnitude > 0 {
            reversed.append(UInt8(magnitude % 10))
            magnitude /= 10
        }
        guard let lowest = reversed.firstIndex(where: { $0 != 0 }) else {
            self = .zero
            return
        }
        self.init(
            isNegative: value < 0,
            digits: reversed[lowest...].reversed(),
            exponent: reversed.count - 1
        )
    }

    /// Whether the number is zero.
    public var isZero: Bool { digits.isEmpty }

    /// The number as DynamoDB returns it: plain decimal digits, never an exponent.
    ///
    /// No `+`, no leading zeros before the point (except the single `0` of `0.x`), no trailing
    /// zeros after it, no negative zero. `1E+125` prints as `1` and 125 zeros, `1E-130` as `0.`,
    /// 129 zeros and `1`.
    public var description: String {
        guard !isZero else { return "0" }
        var text: [UInt8] = []
        text.reserveCapacity(digits.count + abs(exponent) + 3)
        if isNegative { text.append(UInt8(ascii: "-")) }
        let zero = UInt8(ascii: "0")
        if exponent >= 0 {
            for position in 0...exponent {
                text.append(zero + (position < digits.count ? digits[position] : 0))
            }
            if digits.count > exponent + 1 {
                text.append(UInt8(ascii: "."))
                for digit in digits[(exponent + 1)...] { text.append(zero + digit) }
            }
        } else {
            text.append(zero)
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: repeatElement(zero, count: -exponent - 1))
            for digit in digits { text.append(zero + digit) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes this number counts for in DynamoDB's item size (the attribute name not included).
    ///
    /// DynamoDB stores a number as an exponent byte plus base-100 digit pairs aligned on the
    /// decimal point, and one more byte for a negative number; zero costs 1. So `12` costs 2,
    /// `123` costs 3, `1.5` costs 3 (its digits sit in two pairs), `-42` costs 3, and a 38-digit
    /// number 20 or 21. This is the rule dynalite uses and fits every figure measured against
    /// DynamoDB that we know of; the developer guide's "1 byte per two significant digits plus
    /// 1 byte" is only an approximation of it.
    public var storageSize: Int {
        guard !isZero else { return 1 }
        return Self.storageSize(exponent: exponent, lowest: exponent - digits.count + 1, isNegative: isNegative)
    }

    /// ``storageSize`` of the number whose first significant digit is at power `exponent` and
    /// last at `lowest` (shared with ``JSONByteReader/floatList(expected:)``, which reads stored
    /// vectors without building numbers).
    package static func storageSize(exponent: Int, lowest: Int, isNegative: Bool) -> Int {
        // Pairs cover the powers {2k+1, 2k}; `>> 1` is division rounding down, also below zero.
        let pairs = (exponent >> 1) - (lowest >> 1) + 1
        return 1 + pairs + (isNegative ? 1 : 0)
    }

    /// Orders numbers by value.
    public static func < (lhs: DynamoNumber, rhs: DynamoNumber) -> Bool {
        if lhs.signum != rhs.signum { return lhs.signum < rhs.signum }
        let order = compareMagnitudes(lhs, rhs)
        return lhs.isNegative ? order > 0 : order < 0
    }

    /// -1, 0 or 1 as the number is negative, zero or positive.
    var signum: Int { isZero ? 0 : (isNegative ? -1 : 1) }

    /// Compares absolute values: negative, zero or positive as `|lhs|` is below, equal to or
    /// above `|rhs|`.
    static func compareMagnitudes(_ lhs: DynamoNumber, _ rhs: DynamoNumber) -> Int {
        if lhs.isZero || rhs.isZero { return (lhs.isZero ? 0 : 1) - (rhs.isZero ? 0 : 1) }
        if lhs.exponent != rhs.exponent { return lhs.exponent < rhs.exponent ? -1 : 1 }
        for (left, right) in zip(lhs.digits, rhs.digits) where left != right {
            return left < right ? -1 : 1
        }
        // One digit string is a prefix of the other; the longer one has more non-zero digits.
        return lhs.digits.count == rhs.digits.count ? 0 : (lhs.digits.count < rhs.digits.count ? -1 : 1)
    }
}

extension DynamoNumber {
    /// Where the parts of a syntactically valid number literal are.
    struct Literal {
        /// Whether a `-` sign was given.
        var isNegative = false
        /// The integer digits, as a range of the literal's bytes.
        var integer: Range<Int> = 0..<0
        /// The fraction digits, as a range of the literal's bytes.
        var fraction: Range<Int> = 0..<0
        /// The written exponent, clamped far outside the range so arithmetic on it cannot overflow.
        var exponent = 0
        /// Whether the exponent does not fit in a signed 64-bit integer (DynamoDB cannot convert those).
        var exponentTooLong = false

        /// The exponent bound beyond which every number is out of range anyway.
        static let exponentClamp = 1 << 52

        /// Checks the grammar; `nil` if `bytes` is not a number.
        init?(_ bytes: [UInt8]) {
            var index = 0
            if bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") {
                isNegative = bytes[0] == UInt8(ascii: "-")
                index = 1
            }
            integer = Self.digitRun(bytes, from: index)
            index = integer.upperBound
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                fraction = Self.digitRun(bytes, from: index + 1)
                index = fraction.upperBound
            }
            guard !integer.isEmpty || !fraction.isEmpty else { return nil }
            guard index < bytes.count else { return }
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let run = Self.digitRun(bytes, from: index)
            guard !run.isEmpty, run.upperBound == bytes.count else { return nil }
            // Accumulate the magnitude; Int64.min's magnitude is one more than Int64.max.
            let limit = UInt64(Int64.max) + (negativeExponent ? 1 : 0)
            var magnitude: UInt64 = 0
            for position in run {
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
                if overflow1 || overflow2 || sum > limit {
                    exponentTooLong = true
                    return
                }
                magnitude = sum
            }
            let clamped = Int(min(magnitude, UInt64(Self.exponentClamp)))
            exponent = negativeExponent ? -clamped : clamped
        }

        /// The digits starting at `start`, as a range (empty if there are none).
        static func digitRun(_ bytes: [UInt8], from start: Int) -> Range<Int> {
            var end = start
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            return start..<end
        }

        /// The value, checked against DynamoDB's limits.
        func number(_ bytes: [UInt8]) throws(DynamoError) -> DynamoNumber {
            if exponentTooLong {
                throw .validation(Message.unparseable(String(decoding: bytes, as: UTF8.self)))
            }
            // The digits of integer and fraction, read as one run: position 0 is the first
            // integer digit, and position p has the power `integer.count - 1 - p + exponent`.
            var first: Int?
            var last = 0
            var position = 0
            for run in [integer, fraction] {
                for index in run {
                    if bytes[index] != UInt8(ascii: "0") {
                        if first == nil { first = position }
                        last = position
                    }
                    position += 1
                }
            }
            guard let first else {
                // Zero: DynamoDB checks the exponent of the zero as written (BigDecimal's
                // adjusted exponent, the exponent less the fraction digits).
                let written = exponent - fraction.count
                if written > maxExponent { throw .validation(Message.overflow) }
                if written < minExponent { throw .validation(Message.underflow) }
                return .zero
            }
            let leading = exponent + integer.count - 1 - first
            if leading > maxExponent { throw .validation(Message.overflow) }
            if leading < minExponent { throw .validation(Message.underflow) }
            if last - first + 1 > maxDigits { throw .validation(Message.tooPrecise) }
            let digits = (first...last).map { position in
                let index =
                    position < integer.count
                    ? integer.lowerBound + position
                    : fraction.lowerBound + position - integer.count
                return bytes[index] - UInt8(ascii: "0")
            }
            return DynamoNumber(isNegative: isNegative, digits: digits, exponent: leading)
        }
    }
}
