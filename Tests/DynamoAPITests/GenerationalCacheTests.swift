import DynamoAPI
import Testing

@Suite("GenerationalCache")
struct GenerationalCacheTests {
    @Test("a value is computed once and then served from the cache")
    func computesOnce() {
        let cache = GenerationalCache<String, Int>(generationSize: 4)
        var calls = 0
        for _ in 0..<3 {
            #expect(
                cache.value(for: "abc") {
                    calls += 1; return $0.utf8.count
                } == 3)
        }
        #expect(calls == 1)
        #expect(cache.count == 1)
    }

    /// A seeded random sequence of lookups over more keys than the cache holds: every answer is
    /// right, the cache never holds more than two generations, and a key looked up at least
    /// once per generation is never recomputed.
    @Test("bounded to two generations; a key used every generation stays", arguments: [1, 7, 42])
    func boundedAndKeepsHotKeys(seed: UInt64) {
        let size = 8
        let cache = GenerationalCache<Int, Int>(generationSize: size)
        var random = SplitMix64(seed: seed)
        var hotComputations = 0
        for step in 0..<2_000 {
            let key = Int(random.next() % 100) + 1
            #expect(cache.value(for: key) { $0 * 2 } == key * 2)
            if step % (size / 2) == 0 {
                #expect(
                    cache.value(for: 0) { _ in
                        hotComputations += 1; return 0
                    } == 0)
            }
            #expect(cache.count <= 2 * size)
        }
        #expect(hotComputations == 1)
    }
}
