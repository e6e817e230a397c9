import DynamoAPI

/// The tests' random source: SplitMix64, small, seeded, the same sequence on every platform,
/// so a failing randomized case is reproduced by its seed.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let count = random.int(0 ..< 10)
/// ```
public struct SeededRandom: RandomNumberGenerator {
    private var base: SplitMix64

    /// Starts the sequence of `seed`.
    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { base.next() }

    /// A number in `range` (not empty).
    public mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    /// One of `values` (not empty).
    public mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
    /// True `percent` times in 100.
    public mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
}
