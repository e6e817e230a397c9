import DynamoAPI
import Synchronization

/// One vector index's entries in memory, as of one moment: every vector in one contiguous f32
/// array (entries of one `HASH` value next to each other), with their norms, table keys and
/// inline filters, so a search reads memory at its bandwidth rather than SQLite rows.
///
/// Built from ``VectorStore`` by the first search after a write to its table (``VectorCaches``), so a
/// restart needs nothing but that first search; `SQLite` stays the only storage.
final class VectorIndexCache: Sendable {
    /// When the entries were read (``VectorCaches``): the cache answers only while no write to
    /// its table and no change of the namespace's definitions has committed since.
    let stamp: VectorCaches.Stamp
    let dimensions: Int
    /// Entry `i`'s vector at `i * dimensions ..< (i + 1) * dimensions`.
    let vectors: [Float]
    let keys: [StoredKey]
    /// Entry `i`'s stored inline filters (``VectorEntry/encodeFilters(_:)``).
    let filters: [[UInt8]]
    /// The entries of each `HASH` value (all of them under `[]` for an index without one).
    let partitions: [[UInt8]: Range<Int>]

    init(stamp: VectorCaches.Stamp, dimensions: Int, vectors: [Float], keys: [StoredKey], filters: [[UInt8]], partitions: [[UInt8]: Range<Int>]) {
        self.stamp = stamp
        self.dimensions = dimensions
        self.vectors = vectors
        self.keys = keys
        self.filters = filters
        self.partitions = partitions
    }

    /// Reads the entries of `store`, grouped by `HASH` value.
    static func load(_ store: VectorStore, stamp: VectorCaches.Stamp) throws -> VectorIndexCache {
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
            stamp: stamp, dimensions: dimensions, vectors: vectors, keys: keys, filters: filters, partitions: partitions)
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

/// The namespace's vector index caches, and the stamps that say when they are stale.
///
/// A cache is stamped when its entries are read with the namespace's generation (bumped by a
/// restore of the contents and by every commit that changed a definition: an index created,
/// filled or dropped, a table deleted) and its table's generation (bumped by every commit that
/// wrote an item of that table, ``Database/publishAfterCommit(_:)``). A write to another table
/// leaves the cache current, so a search after it reads memory, not SQLite.
final class VectorCaches: Sendable {
    /// When a cache's entries were read: it answers only while both generations are the same.
    struct Stamp: Equatable {
        var namespace: Int
        var table: Int
    }

    private struct Key: Hashable {
        var storageID: Int64
        var index: Int
    }

    private struct State {
        var namespace = 0
        var tables: [Int64: Int] = [:]
        var caches: [Key: VectorIndexCache] = [:]

        func stamp(_ storageID: Int64) -> Stamp { Stamp(namespace: namespace, table: tables[storageID, default: 0]) }
    }

    private let state = Mutex(State())

    /// The stamp of `table` now (read before the snapshot that loads a cache: a commit in
    /// between bumps it, so the cache is stale the next time).
    func stamp(of table: TableDefinition) -> Stamp {
        state.withLock { $0.stamp(table.storageID) }
    }

    /// The cache of `index` of `table` read at `stamp`, if there is one.
    func current(table: TableDefinition, index: VectorIndexDefinition, stamp: Stamp) -> VectorIndexCache? {
        state.withLock { state in
            guard let cache = state.caches[Key(storageID: table.storageID, index: index.storageNumber)],
                cache.stamp == stamp, cache.dimensions == index.dimensions
            else { return nil }
            return cache
        }
    }

    /// Keeps `cache` for `index` of `table`, replacing an older one, and drops every cache that
    /// is stale now (its entries may have changed since).
    func keep(_ cache: VectorIndexCache, table: TableDefinition, index: VectorIndexDefinition) {
        state.withLock { state in
            let snapshot = state
            state.caches = state.caches.filter { $0.value.stamp == snapshot.stamp($0.key.storageID) }
            state.caches[Key(storageID: table.storageID, index: index.storageNumber)] = cache
        }
    }

    /// Marks every cache stale.
    func invalidate() {
        state.withLock { $0.namespace += 1 }
    }

    /// Marks the caches of the tables stored as `storageIDs` stale.
    func invalidate(tables storageIDs: Set<Int64>) {
        state.withLock { state in
            for storageID in storageIDs { state.tables[storageID, default: 0] += 1 }
        }
    }
}
