import DynamoAPI
import Testing

@Suite struct CRC32Tests {
    /// A byte-at-a-time reference (the textbook bitwise algorithm).
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    @Test(arguments: [
        ("", 0x0000_0000 as UInt32),
        ("a", 0xE8B7_BE43),
        ("abc", 0x3524_41C2),
        ("123456789", 0xCBF4_3926),
        ("The quick brown fox jumps over the lazy dog", 0x414F_A339),
        // dynalite hard-codes this one for its 404 body.
        ("<UnknownOperationException/>\n", 3_552_371_480),
    ])
    func knownVectors(text: String, expected: UInt32) {
        #expect(CRC32.checksum(Array(text.utf8)) == expected)
    }

    @Test func matchesReferenceAtEveryLengthAndAlignment() {
        // A fixed pseudo-random sequence (a linear congruential generator), so failures repeat.
        var state: UInt32 = 42
        let bytes = (0..<300).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = Array(bytes[start..<end])
                #expect(CRC32.checksum(slice) == Self.reference(slice))
            }
        }
    }

    @Test func continuesAcrossPieces() {
        let text = Array("The quick brown fox jumps over the lazy dog".utf8)
        let first = CRC32.checksum(text[..<10])
        #expect(CRC32.checksum(text[10...], continuing: first) == 0x414F_A339)
    }
}
