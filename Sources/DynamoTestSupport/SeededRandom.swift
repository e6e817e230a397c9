/// The tests' random source: SplitMix64, small, seeded, the same sequence on every platform,
/// so a failing case is reproduced by its seed.
public struct SeededRandom: RandomNumberGenerator {
    /// The generator's state.
    public var state: UInt64

    /// Starts the sequence of `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (not empty).
    public mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    /// One of `values` (not empty).
    public mutating func pick<T>(_ values: [T]) -> T { values[int(0 ..< values.count)] }
    /// True `percent` times in 100.
    public mutating func chance(_ percent: Int) -> Bool { int(0 ..< 100) < percent }
}
