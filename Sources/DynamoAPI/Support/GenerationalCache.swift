import Synchronization

/// A bounded, thread-safe cache that approximates least-recently-used eviction with two
/// generations: lookups find entries in either and promote old ones to the young generation;
/// when the young generation fills up it becomes the old one and the previous old one is
/// dropped. So at most `2 × generationSize` entries are kept, an entry used at least once per
/// generation stays, and a hit costs one lock and one or two hash lookups, or, for one of the
/// last few keys looked up, comparisons alone (a server sends the same few statements and
/// expressions again and again, and hashing a statement's text costs more than comparing it
/// with the text of the last one: two requests' strings are compared byte by byte, a string
/// with itself by identity).
///
/// ```swift
/// let cache = GenerationalCache<String, Int>(generationSize: 256)
/// let length = cache.value(for: "text") { $0.utf8.count }   // computed once, then remembered
/// ```
package final class GenerationalCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct Generations: Sendable {
        @usableFromInline var young: [Key: Value] = [:]
        @usableFromInline var old: [Key: Value] = [:]
        /// The last keys found or made, newest first, each also in `young`: emptied when the
        /// generations rotate, so a key is looked up in them (and kept) once per generation.
        @usableFromInline var recent: [(key: Key, value: Value)] = []

        @usableFromInline init() {}
    }

    /// How many of the last keys a lookup compares before it hashes.
    @usableFromInline static var recentCount: Int { 4 }

    @usableFromInline let generations = Mutex(Generations())
    /// How many entries a generation holds before it is retired.
    package let generationSize: Int

    package init(generationSize: Int) {
        precondition(generationSize > 0, "a generation holds at least one entry")
        self.generationSize = generationSize
    }

    /// The value remembered for `key`, or `make(key)` computed outside the lock and remembered.
    /// Two threads missing the same key at once may both compute it; the last one is kept.
    ///
    /// Inlinable, so that each cache's code is specialized for its key and value types where it
    /// is used (generic code compares and copies keys through witness tables).
    @inlinable
    package func value(for key: Key, _ make: (Key) -> Value) -> Value {
        if let cached = lookup(key) { return cached }
        let value = make(key)
        generations.withLock { state in
            state.young[key] = value
            Self.remember(key, value, in: &state)
            Self.rotateIfFull(&state, size: generationSize)
        }
        return value
    }

    /// How many entries are kept now.
    package var count: Int { generations.withLock { $0.young.count + $0.old.count } }

    @inlinable
    func lookup(_ key: Key) -> Value? {
        generations.withLock { state in
            for entry in state.recent where entry.key == key { return entry.value }
            if let hit = state.young[key] {
                Self.remember(key, hit, in: &state)
                return hit
            }
            guard let hit = state.old[key] else { return nil }
            state.young[key] = hit
            Self.remember(key, hit, in: &state)
            Self.rotateIfFull(&state, size: generationSize)
            return hit
        }
    }

    @inlinable
    static func remember(_ key: Key, _ value: Value, in state: inout Generations) {
        if state.recent.count >= recentCount { state.recent.removeLast() }
        state.recent.insert((key, value), at: 0)
    }

    @inlinable
    static func rotateIfFull(_ state: inout Generations, size: Int) {
        guard state.young.count >= size else { return }
        state.old = state.young
        state.young = [:]
        state.recent = []
    }
}
