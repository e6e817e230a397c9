/// How DynamoDB's Java service prints values and orders names in its validation messages.
///
/// DynamoDB's validator quotes offending values with Java's `toString` (`[a, b]` for a list,
/// `{k=v}` for a map, `KeySchemaElement(attributeName=pk, keyType=HASH)` for a structure) and
/// walks members and map keys in the iteration order of a Java 7 `HashMap`: by bucket of the
/// spread `String.hashCode`, in a table of 16 buckets doubled while the entries exceed three
/// quarters of it (within a bucket, later entries first). That order reproduces the multi-error
/// messages recorded against real DynamoDB in dynalite's test suite (`test/createTable.js`,
/// `test/query.js`, `test/batchGetItem.js`); the generator uses the same rule to order the
/// members it validates. Map keys tied in a bucket are ordered by text, as the request's own
/// key order is not kept.
enum JavaRendering {
    // MARK: Hash order

    /// Java's `String.hashCode` (over UTF-16 code units, wrapping 32-bit arithmetic).
    static func hashCode(_ text: String) -> Int32 {
        var hash: Int32 = 0
        for unit in text.utf16 { hash = 31 &* hash &+ Int32(unit) }
        return hash
    }

    /// Java 7's `HashMap.hash` supplementary spreading.
    static func spread(_ hash: Int32) -> UInt32 {
        var h = UInt32(bitPattern: hash)
        h ^= (h >> 20) ^ (h >> 12)
        return h ^ (h >> 7) ^ (h >> 4)
    }

    /// The bucket count of a Java `HashMap` holding `count` entries.
    static func tableSize(forCount count: Int) -> Int {
        var size = 16
        while count * 4 > size * 3 { size *= 2 }
        return size
    }

    /// `keys` in Java `HashMap` iteration order (ties, which Java orders by insertion, by text).
    static func hashOrder(_ keys: some Collection<String>) -> [String] {
        let mask = UInt32(tableSize(forCount: keys.count) - 1)
        var entries: [(bucket: UInt32, key: String)] = []
        entries.reserveCapacity(keys.count)
        for key in keys { entries.append((spread(hashCode(key)) & mask, key)) }
        entries.sort { (lhs: (bucket: UInt32, key: String), rhs: (bucket: UInt32, key: String)) -> Bool in
            if lhs.bucket != rhs.bucket { return lhs.bucket < rhs.bucket }
            return lhs.key < rhs.key
        }
        return entries.map { $0.key }
    }

    // MARK: toString

    /// Java's `Double.toString`: plain notation in [10⁻³, 10⁷), otherwise `1.5E10` style.
    static func double(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        // Swift prints the shortest round-tripping digits; take them apart.
        var text = "\(abs(value))"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integer = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = integer + fraction
        var pointPosition = integer.count + exponent // digits before the decimal point
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let sign = value < 0 ? "-" : ""
        let magnitude = abs(value)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if pointPosition <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
            }
            if pointPosition >= digits.count {
                return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let mantissaFraction = digits.count > 1 ? String(digits.dropFirst()) : "0"
        return sign + String(digits.prefix(1)) + "." + mantissaFraction + "E" + String(pointPosition - 1)
    }

    /// Java's `Date.toString` in UTC: `Thu Jan 01 00:00:00 UTC 1970`.
    static func date(secondsSince1970 seconds: Double) -> String {
        let date = CivilDate(secondsSince1970: seconds)
        let two = CivilDate.twoDigits
        return "\(CivilDate.weekdayNames[date.weekday]) \(CivilDate.monthNames[date.month - 1]) \(two(date.day)) "
            + "\(two(date.hour)):\(two(date.minute)):\(two(date.second)) UTC \(date.year)"
    }

    /// What Java prints for a `ByteBuffer` (DynamoDB's type for binary members).
    static func byteBuffer(count: Int) -> String {
        "java.nio.HeapByteBuffer[pos=0 lim=\(count) cap=\(count)]"
    }
}

extension JavaRendering {
    /// Appends `value` as Java's `toString` would print it, `null` when absent.
    static func append(_ value: (some ShapeValue)?, to text: inout String) {
        if let value { value.appendJava(to: &text) } else { text += "null" }
    }
}
