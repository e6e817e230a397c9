import DynamoAPI

/// How DynamoDB compares values: numbers by exact value, strings by their UTF-8 bytes, binary by
/// unsigned bytes; equality of every type, with sets equal regardless of order.
public enum Ordering {
    /// -1, 0 or 1 for two strings, numbers or binaries of the same type; `nil` otherwise.
    public static func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Int? {
        switch (lhs, rhs) {
        case (.n(let a), .n(let b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.s(let a), .s(let b)):
            return compareBytes(a.utf8, b.utf8)
        case (.b(let a), .b(let b)):
            return compareBytes(a, b)
        default:
            return nil
        }
    }

    /// Lexicographic order of unsigned bytes.
    static func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
        var left = a.makeIterator(), right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    /// Whether two values are equal as DynamoDB's `=` sees them: same type and same value, strings
    /// byte for byte (not by Unicode equivalence), sets in any order, maps and lists deeply.
    public static func equal(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.s(let a), .s(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.n(let a), .n(let b)): return a == b
        case (.b(let a), .b(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.ss(let a), .ss(let b)):
            return a.count == b.count && Set(a.map { Array($0.utf8) }) == Set(b.map { Array($0.utf8) })
        case (.ns(let a), .ns(let b)): return a.count == b.count && Set(a) == Set(b)
        case (.bs(let a), .bs(let b)): return a.count == b.count && Set(a) == Set(b)
        case (.l(let a), .l(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.m(let a), .m(let b)):
            guard a.count == b.count else { return false }
            // Map keys are compared as Swift strings by the dictionary; check the bytes too.
            for (key, value) in a {
                guard let other = b[key], equal(value, other) else { return false }
            }
            return Set(a.keys.map { Array($0.utf8) }) == Set(b.keys.map { Array($0.utf8) })
        default:
            return false
        }
    }

    /// Whether `needle` occurs in `haystack` as a run of bytes.
    static func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
