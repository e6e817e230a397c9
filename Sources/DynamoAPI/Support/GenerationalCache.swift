import Synchronization

/// A bounded, thread-safe cache that approximates least-recently-used eviction with two
/// generations: lookups find entries in either and promote old ones to the young generation;
/// when the young generation fills up it becomes the old one and the previous old one is
/// dropped. So at most `2 × generationSize` entries are kept, an entry used at least once per
/// generation stays, and a hit costs one lock and one or two hash lookups.
///
/// ```swift
/// let cache = GenerationalCache<String, Int>(generationSize: 256)
/// let length = cache.value(for: "text") { $0.utf8.count }   // computed once, then remembered
/// ```
package final class GenerationalCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Generations: Sendable {
        var young: [Key: Value] = [:]
        var old: [Key: Value] = [:]
    }

    private let generations = Mutex(Generations())
    /// How many entries a generation holds before it is retired.
    package let generationSize: Int

    package init(generationSize: Int) {
        precondition(generationSize > 0, "a generation holds at least one entry")
        self.generationSize = generationSize
    }

    /// The value remembered for `key`, or `make(key)` computed outside the lock and remembered.
    /// Two threads missing the same key at once may both compute it; the last one is kept.
    package func value(for key: Key, _ make: (Key) -> Value) -> Value {
        if let cached = lookup(key) { return cached }
        let value = make(key)
        generations.withLock { state in
            state.young[key] = value
            Self.rotateIfFull(&state, size: generationSize)
        }
        return value
    }

    /// How many entries are kept now.
    package var count: Int { generations.withLock { $0.young.count + $0.old.count } }

    private func lookup(_ key: Key) -> Value? {
        generations.withLock { state in
            if let hit = state.young[key] { return hit }
            guard let hit = state.old[key] else { return nil }
            state.young[key] = hit
            Self.rotateIfFull(&state, size: generationSize)
            return hit
        }
    }

    private static func rotateIfFull(_ state: inout Generations, size: Int) {
        guard state.young.count >= size else { return }
        state.old = state.young
        state.young = [:]
    }
}
