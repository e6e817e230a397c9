/// The `service` model's random draws: each a pure function of the seed and what it is drawn
/// for, so a run replays with its seed whatever the order and timing of its requests.
struct ConsistencyDraws: Sendable {
    let seed: UInt64

    /// What a draw is for: two draws of different purposes for the same change are independent.
    enum Purpose: UInt64 {
        case staleChance = 1
        case staleLag = 2
        case indexLag = 3
        case streamLag = 4
        case ttlLag = 5
        case kinesisLag = 6
    }

    /// A number in `[0, 1)` for `purpose`, from the seed and `parts`.
    func unit(_ purpose: Purpose, _ parts: [UInt8]...) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a over every part, each ended by its length
        for part in parts {
            for byte in part { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = (hash ^ UInt64(part.count)) &* 0x0000_0100_0000_01b3
        }
        let mixed = Self.splitMix(hash ^ Self.splitMix(seed &+ purpose.rawValue))
        return Double(mixed >> 11) / Double(UInt64(1) << 53)
    }

    /// A number in `[0, 1)` for `purpose`, from the seed and `value`.
    func unit(_ purpose: Purpose, _ value: UInt64) -> Double {
        let mixed = Self.splitMix(Self.splitMix(value) ^ Self.splitMix(seed &+ purpose.rawValue))
        return Double(mixed >> 11) / Double(UInt64(1) << 53)
    }

    /// SplitMix64's finalizer: a bijection of 64-bit values that spreads every input bit.
    static func splitMix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
