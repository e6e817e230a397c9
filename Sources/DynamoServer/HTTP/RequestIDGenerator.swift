import DynamoAPI

/// Makes `x-amzn-RequestId` values shaped like DynamoDB's: 52 characters from `[A-Z0-9]`.
///
/// Request ids only need to be unique in practice, not unpredictable, so each connection owns a
/// generator (no locking) seeded once from the system's random source and stepped with
/// SplitMix64; making an id costs five multiplications per 12 characters and one allocation.
struct RequestIDGenerator: RandomNumberGenerator {
    /// The length of a DynamoDB request id.
    static let length = 52

    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    mutating func next() -> UInt64 {
        random.next()
    }

    /// A fresh request id.
    mutating func makeID() -> String {
        // 36^12 < 2^64: one 64-bit draw yields 12 base-36 digits (with a negligible bias).
        String(unsafeUninitializedCapacity: Self.length) { buffer in
            var index = 0
            while index < Self.length {
                var draw = next()
                var digits = 0
                while digits < 12, index < Self.length {
                    let digit = UInt8(truncatingIfNeeded: draw % 36)
                    draw /= 36
                    buffer[index] = digit < 26 ? UInt8(ascii: "A") + digit : UInt8(ascii: "0") + digit - 26
                    index += 1
                    digits += 1
                }
            }
            return Self.length
        }
    }
}
