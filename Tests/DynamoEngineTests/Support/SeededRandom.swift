import DynamoAPI

/// The engine tests' random source (SplitMix64): a failing randomized test names its seed.
typealias SeededRandom = SplitMix64
