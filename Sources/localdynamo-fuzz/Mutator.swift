import DynamoAPI

/// Seeded byte-level mutations of a corpus entry: bit flips, interesting bytes, deletions,
/// duplications, a target's dictionary tokens, splices from other entries, truncation, deep
/// nesting and extreme numbers. The same seed gives the same inputs.
struct Mutator {
    /// No target's inputs grow past this, so one input stays fast to check.
    static let maximumSize = 64 * 1024

    private var random: SplitMix64
    private let maximumSize: Int
    private let dictionary: [[UInt8]]

    private static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x27, 0x2C, 0x2E, 0x30, 0x3A, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D,
        0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xED, 0xF0, 0xF4, 0xF8, 0xFF,
    ]
    private static let extremeNumbers: [String] = [
        "0", "-0", "1e126", "9.9999999999999999999999999999999999999E+125", "1e-130", "1E-131", "1e400",
        "-1e-400", "99999999999999999999999999999999999999999", "0.000000000000000000000000000000000000001",
        "18446744073709551616", "-9223372036854775809", "2147483648", "1.", ".5", "1e", "--1", "0x10", "NaN",
    ]

    init(seed: UInt64, dictionary: [String], maximumSize: Int) {
        random = SplitMix64(seed: seed)
        self.maximumSize = min(maximumSize, Self.maximumSize)
        self.dictionary = dictionary.map { Array($0.utf8) }
    }

    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// One to eight stacked mutations of `input`; `corpus` feeds splices.
    mutating func mutate(_ input: [UInt8], corpus: [[UInt8]]) -> [UInt8] {
        var bytes = input
        let rounds = chance(20) ? 1 + below(8) : 1 + below(3)
        for _ in 0..<rounds { mutateOnce(&bytes, corpus: corpus) }
        if bytes.count > maximumSize { bytes.removeLast(bytes.count - maximumSize) }
        return bytes
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8], corpus: [[UInt8]]) {
        let position = below(bytes.count + 1)
        let end = min(bytes.count, position + 1 + below(16))
        switch below(12) {
        case 0 where !bytes.isEmpty: bytes[min(position, bytes.count - 1)] ^= UInt8(1 << below(8))
        case 1 where !bytes.isEmpty: bytes[min(position, bytes.count - 1)] = pick(Self.interestingBytes)
        case 2: bytes.removeSubrange(position..<end)
        case 3: bytes.insert(contentsOf: bytes[position..<end], at: position)
        case 4...5 where !dictionary.isEmpty: bytes.insert(contentsOf: pick(dictionary), at: position)
        case 6 where !dictionary.isEmpty: bytes.replaceSubrange(position..<end, with: pick(dictionary))
        case 7 where !corpus.isEmpty:
            let other = pick(corpus)
            let start = below(other.count)
            bytes.insert(contentsOf: other[start..<min(other.count, start + 1 + below(64))], at: position)
        case 8: bytes.removeSubrange(position...)
        case 9:
            let opener: [UInt8] = chance(50) ? Array(#"{"a":"#.utf8) : [UInt8(ascii: "[")]
            let depth = chance(10) ? 100 + below(100_000) : 1 + below(40)
            let nested = Array([[UInt8]](repeating: opener, count: min(depth, maximumSize / opener.count / 2)).joined())
            bytes.insert(contentsOf: nested, at: position)
        case 10:
            let token = dictionary.isEmpty ? [UInt8(ascii: "a")] : pick(dictionary)
            bytes.insert(
                contentsOf: Array([[UInt8]](repeating: token, count: 2 + below(chance(10) ? 5_000 : 50)).joined()),
                at: position)
        default: replaceNumber(&bytes, near: position)
        }
    }

    /// Replaces the run of digits at or after `position` with an extreme number.
    private mutating func replaceNumber(_ bytes: inout [UInt8], near position: Int) {
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard let start = bytes[position...].firstIndex(where: isDigit) else {
            bytes.insert(contentsOf: Array(pick(Self.extremeNumbers).utf8), at: position)
            return
        }
        let end = bytes[start...].firstIndex(where: { !isDigit($0) && $0 != UInt8(ascii: ".") }) ?? bytes.count
        bytes.replaceSubrange(start..<end, with: Array(pick(Self.extremeNumbers).utf8))
    }
}
