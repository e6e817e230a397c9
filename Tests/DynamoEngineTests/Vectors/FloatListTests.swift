import DynamoAPI
import DynamoTestSupport
import Testing

/// ``JSONByteReader/floatList(expected:)``, which a vector backfill reads every stored vector
/// with: each element rounded once to the nearest float and sized as DynamoDB sizes it, whatever
/// the spelling, against `Float(text)` and ``DynamoNumber/storageSize``.
@Suite("Vector elements read from stored JSON")
struct FloatListTests {
    /// A number's text: short decimals and integers, exponents, trailing zeros, Swift's float
    /// and double texts, integers on the midpoint between two floats, more digits than the one
    /// pass takes.
    static func numberText(_ random: inout SeededRandom) -> String {
        let sign = Bool.random(using: &random) ? "-" : ""
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return sign + String(Int.random(in: 0...999_999, using: &random))
        case 1:
            return sign + "0." + String(repeating: "0", count: Int.random(in: 0...5, using: &random))
                + String(Int.random(in: 1...99_999, using: &random))
        case 2: return sign + String(Float.random(in: 0...100, using: &random))
        case 3: return sign + "\(Int.random(in: 1...999, using: &random))e\(Int.random(in: -40...35, using: &random))"
        case 4: return sign + "\(Int.random(in: 1...99, using: &random))" + String(repeating: "0", count: Int.random(in: 1...6, using: &random))
        case 5:
            // 2^24 + an odd number, 2^25 + 2 × an odd number …: exactly between two floats.
            let shift = Int.random(in: 0...6, using: &random)
            return sign + String((1 << (24 + shift)) + (2 * Int.random(in: 0..<1_000, using: &random) + 1) << shift)
        case 6: return sign + String(Double.random(in: 0...1e6, using: &random))
        case 7:
            return sign + "1."
                + String((0..<Int.random(in: 14...25, using: &random)).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        default:
            return sign
                + "\(Int.random(in: 1...9, using: &random)).\(Int.random(in: 0...99, using: &random))E+\(Int.random(in: 0...30, using: &random))"
        }
    }

    static func read(_ json: String, expected: Int) -> (floats: [Float], size: Int)? {
        Array(json.utf8).withUnsafeBytes { bytes in
            var reader = JSONByteReader(bytes)
            return try? reader.floatList(expected: expected)
        }
    }

    @Test("each element is the float Float(text) gives, and the list's size DynamoDB's", arguments: [UInt64(1), 2, 3, 4])
    func matchesCorrectRounding(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<300 {
            let texts = (0..<Int.random(in: 0...24, using: &random)).map { _ in Self.numberText(&random) }
            let numbers = try texts.map { try DynamoNumber(parsing: $0) }
            // As stored (compact), and with whitespace between every token.
            let compact = "{\"L\":[" + texts.map { "{\"N\":\"\($0)\"}" }.joined(separator: ",") + "]}"
            let spaced = "{ \"L\" : [ " + texts.map { "{ \"N\" : \"\($0)\" }" }.joined(separator: " , ") + " ] }"
            let expectedSize = ItemSize.of(.l(numbers.map(AttributeValue.n)))
            for json in [compact, spaced] {
                let read = try #require(Self.read(json, expected: texts.count), "\(json)")
                #expect(read.floats == texts.map { Float($0)! }, "\(json)")
                #expect(read.size == expectedSize, "\(json)")
            }
        }
    }

    /// A decimal where rounding is hardest: near the midpoint of two adjacent floats (the
    /// midpoint's own shortest text and the texts of the doubles next to it), a float's shortest
    /// text, subnormals, the overflow threshold, integers exactly on a midpoint, mantissas of up
    /// to 20 digits at exponents from 10^-50 to 10^40.
    static func hardDecimal(_ random: inout SeededRandom) -> String {
        let sign = Bool.random(using: &random) ? "-" : ""
        let float = Float(bitPattern: UInt32.random(in: 0x0080_0000...0x7F7F_FFFF, using: &random))
        let midpoint = (Double(float) + Double(float.nextUp)) / 2
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return sign + String(midpoint)
        case 1: return sign + String(Bool.random(using: &random) ? midpoint.nextUp : midpoint.nextDown)
        case 2: return sign + String(float)
        case 3:
            // Subnormal floats and the smallest normal ones.
            return sign + String(Double.random(in: 1e-46...2e-38, using: &random))
        case 4:
            // Around the largest float and the threshold above which a float overflows.
            return sign + String(Double.random(in: 3.40282e38...3.4028236e38, using: &random))
        case 5:
            let shift = Int.random(in: 0...30, using: &random)
            return sign + String((UInt64(1) << (24 + shift)) + (2 * UInt64.random(in: 0..<1_000, using: &random) + 1) << shift)
        default:
            let digits = (0..<Int.random(in: 1...20, using: &random)).map { _ in String(Int.random(in: 0...9, using: &random)) }
            return sign + "1" + digits.joined() + "e\(Int.random(in: -50...40, using: &random))"
        }
    }

    @Test("each of 20,000 hard decimals per seed reads as Float(text), bit for bit", arguments: [UInt64(40), 41, 42, 0xF10A7])
    func hardDecimalsRoundOnce(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<20_000 {
            let text = Self.hardDecimal(&random)
            let expected = try #require(Float(text), "\(text)")
            let read = Self.read("{\"L\":[{\"N\":\"\(text)\"}]}", expected: 1)
            guard expected.isFinite else {
                // No finite float holds it: the fast reader leaves it to the careful one.
                #expect(read == nil, "\(text)")
                continue
            }
            #expect(read?.floats.map(\.bitPattern) == [expected.bitPattern], "\(text)")
        }
    }

    @Test("bails on what is not a list of numbers a float holds")
    func bails() {
        for json in ["{\"L\":[{\"S\":\"1\"}]}", "{\"N\":\"1\"}", "{\"L\":[{\"N\":\"1e39\"}]}", "{\"L\":[{\"N\":\"1\"}", "{\"L\":[{\"N\":\"1\"]}"] {
            #expect(Self.read(json, expected: 1) == nil, "\(json)")
        }
        #expect(Self.read("{\"L\":[]}", expected: 0)?.floats == [])
    }
}
