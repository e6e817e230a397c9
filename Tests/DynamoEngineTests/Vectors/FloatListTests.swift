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

    @Test("bails on what is not a list of numbers a float holds")
    func bails() {
        for json in ["{\"L\":[{\"S\":\"1\"}]}", "{\"N\":\"1\"}", "{\"L\":[{\"N\":\"1e39\"}]}", "{\"L\":[{\"N\":\"1\"}", "{\"L\":[{\"N\":\"1\"]}"] {
            #expect(Self.read(json, expected: 1) == nil, "\(json)")
        }
        #expect(Self.read("{\"L\":[]}", expected: 0)?.floats == [])
    }
}
