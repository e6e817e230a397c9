import DynamoAPI
import Synchronization

/// One vector index's entries in memory, as of one moment: every vector in one contiguous f32
/// array (entries of one `HASH` value next to each other), with their norms, table keys and
/// inline filters, so a search reads memory at its bandwidth rather than SQLite rows.
///
/// Built from ``VectorStore`` by the first search after any write (``VectorCaches``), so a
/// restart needs nothing but that first search; `SQLite` stays the only storage.
final class VectorIndexCache: Sendable {
    /// ``VectorCaches/generation`` when the entries were read: the cache answers only while
    /// no write has committed since.
    let generation: Int
    let dimensions: Int
    /// Entry `i`'s vector at `i * dimensions ..< (i + 1) * dimensions`.
    let vectors: [Float]
    let keys: [StoredKey]
    /// Entry `i`'s stored inline filters (``VectorEntry/encodeFilters(_:)``).
    let filters: [[UInt8]]
    /// The entries of each `HASH` value (all of them under `[]` for an index without one).
    let partitions: [[UInt8]: Range<Int>]

    init(generation: Int, dimensions: Int, vectors: [Float], keys: [StoredKey], filters: [[UInt8]], partitions: [[UInt8]: Range<Int>]) {
        self.generation = generation
        self.dimensions = dimensions
        self.vectors = vectors
        self.keys = keys
        self.filters = filters
        self.partitions = partitions
    }

    /// Reads the entries of `store`, grouped by `HASH` value.
    static func load(_ store: VectorStore, generation: Int) throws -> VectorIndexCache {
        let dimensions = store.index.dimensions
        var vectors: [Float] = []
        var keys: [StoredKey] = []
        var filters: [[UInt8]] = []
        var partitions: [[UInt8]: Range<Int>] = [:]
        var current: [UInt8]?
        var start = 0
        vectors.reserveCapacity(Int(try store.statistics().itemCount) * dimensions)
        try store.forEachByPartition { key, part, filter, vector in
            if part != current {
                if let current { partitions[current] = start..<keys.count }
                current = part
                start = keys.count
            }
            keys.append(key)
            filters.append(filter)
            let offset = vectors.count
            vectors.append(contentsOf: repeatElement(0, count: dimensions))
            guard let source = vector.baseAddress, vector.count >= dimensions * 4 else { return }
            vectors.withUnsafeMutableBytes { target in
                target.baseAddress!.advanced(by: offset * 4).copyMemory(from: source, byteCount: dimensions * 4)
            }
        }
        if let current { partitions[current] = start..<keys.count }
        return VectorIndexCache(
            generation: generation, dimensions: dimensions, vectors: vectors, keys: keys, filters: filters, partitions: partitions)
    }

    /// The best `k` entries for `scorer` among those `scope` admits.
    func search(_ scorer: VectorScorer, scope: SearchScope, k: Int, filterCount: Int) -> [TopK.Candidate] {
        var best = TopK(k: k, scorer: scorer)
        let range = partitions[scope.partition ?? []] ?? 0..<0
        let stride = dimensions * 4
        vectors.withUnsafeBytes { all in
            for entry in range {
                guard filters[entry].withUnsafeBytes({ scope.matches(filters: $0, count: filterCount) }) else { continue }
                let vector = UnsafeRawBufferPointer(rebasing: all[entry * stride..<(entry + 1) * stride])
                best.offer(score: scorer.score(vector), key: { keys[entry] })
            }
        }
        return best.candidates
    }
}

/// The namespace's vector index caches, and the generation that says when they are stale.
final class VectorCaches: Sendable {
    /// Bumped after every committed write transaction (``Database/publishAfterCommit(_:)``) and
    /// every restore of the contents: a cache read at another generation may miss a change.
    let generation = Atomic<Int>(0)

    private struct Key: Hashable {
        var storageID: Int64
        var index: Int
    }

    private let caches = Mutex<[Key: VectorIndexCache]>([:])

    /// The cache of `index` of `table` that is current at `generation`, if there is one.
    func current(table: TableDefinition, index: VectorIndexDefinition, generation: Int) -> VectorIndexCache? {
        caches.withLock { caches in
            guard let cache = caches[Key(storageID: table.storageID, index: index.storageNumber)], cache.generation == generation,
                cache.dimensions == index.dimensions
            else { return nil }
            return cache
        }
    }

    /// Keeps `cache` for `index` of `table`, replacing an older one; drops the caches of other
    /// generations (their entries may have changed).
    func keep(_ cache: VectorIndexCache, table: TableDefinition, index: VectorIndexDefinition) {
        caches.withLock { caches in
            caches = caches.filter { $0.value.generation >= cache.generation }
            caches[Key(storageID: table.storageID, index: index.storageNumber)] = cache
        }
    }

    /// The generation now (read before a snapshot that loads a cache).
    func currentGeneration() -> Int {
        generation.load(ordering: .acquiring)
    }

    /// Marks every cache stale.
    func invalidate() {
        generation.add(1, ordering: .releasing)
    }
}
