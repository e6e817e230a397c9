import DynamoAPI

/// The tests' random source: SplitMix64, small, seeded, the same sequence on every platform,
/// so a failing case is reproduced by its seed.
struct SeededRandom: RandomNumberGenerator {
    private var base: SplitMix64

    /// Starts the sequence of `seed`.
    init(seed: UInt64) { base = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { base.next() }

    /// A number in `range` (not empty).
    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    /// One of `values` (not empty).
    mutating func pick<T>(_ values: [T]) -> T { values[int(0 ..< values.count)] }
    /// True `percent` times in 100.
    mutating func chance(_ percent: Int) -> Bool { int(0 ..< 100) < percent }
}
