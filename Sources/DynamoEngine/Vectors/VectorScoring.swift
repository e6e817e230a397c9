/// The scores SearchVectors ranks by, computed in f32 over little-endian f32 bytes (SIMD, eight
/// lanes at a time), and the selection of the best `k`.
///
/// - `COSINE`: 1 − cos(a, b), from 0 (same direction) to 2 (opposite), smallest first; a zero
///   vector on either side scores 1 (as if orthogonal).
/// - `EUCLIDEAN`: the distance ‖a − b‖, smallest first.
/// - `DOT_PRODUCT`: a · b, largest first.
///
/// Ties keep the item that comes first in the table's key order (partition key, then sort key,
/// as DynamoDB orders key values), so an answer never depends on storage or write order.
struct VectorScorer {
    enum Function {
        case cosine, euclidean, dotProduct
    }

    let function: Function
    let query: [Float]
    /// ‖query‖, for COSINE.
    let queryNorm: Float

    init(function: Function, query: [Float]) {
        self.function = function
        self.query = query
        queryNorm = Self.dot(query, query).squareRoot()
    }

    /// Whether `score` ranks ahead of `other`.
    func ranksBefore(_ score: Float, _ other: Float) -> Bool {
        function == .dotProduct ? score > other : score < other
    }

    /// The score of the stored vector `bytes` (4 × dimensions bytes). A score that overflows f32
    /// (vectors near f32's limits) is clamped to the largest finite value, ranked last.
    func score(_ bytes: UnsafeRawBufferPointer) -> Float {
        let score = rawScore(bytes)
        if score.isFinite { return score }
        let worst = function == .dotProduct ? -Float.greatestFiniteMagnitude : Float.greatestFiniteMagnitude
        return score.isNaN ? worst : max(-Float.greatestFiniteMagnitude, min(Float.greatestFiniteMagnitude, score))
    }

    private func rawScore(_ bytes: UnsafeRawBufferPointer) -> Float {
        query.withUnsafeBufferPointer { query in
            switch function {
            case .dotProduct:
                return Self.dot(query, bytes)
            case .euclidean:
                return Self.squaredDistance(query, bytes).squareRoot()
            case .cosine:
                let (dot, norm) = Self.dotAndNorm(query, bytes)
                let denominator = queryNorm * norm.squareRoot()
                guard denominator > 0 else { return 1 }
                return 1 - dot / denominator
            }
        }
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Float {
        b.withUnsafeBytes { right in a.withUnsafeBufferPointer { left in dot(left, right) } }
    }

    /// Σ aᵢbᵢ.
    static func dot(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeRawBufferPointer) -> Float {
        products(a, b, withNorm: false).dot
    }

    /// (Σ aᵢbᵢ, Σ bᵢ²) in one pass.
    static func dotAndNorm(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeRawBufferPointer) -> (Float, Float) {
        let sums = products(a, b, withNorm: true)
        return (sums.dot, sums.norm)
    }

    /// Σ aᵢbᵢ and, when `withNorm`, Σ bᵢ², eight lanes at a time.
    @inline(__always)
    private static func products(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeRawBufferPointer, withNorm: Bool) -> (dot: Float, norm: Float) {
        var sum = SIMD8<Float>()
        var squares = SIMD8<Float>()
        let count = a.count
        var position = 0
        while position + 8 <= count {
            let left = UnsafeRawBufferPointer(a).loadUnaligned(fromByteOffset: position * 4, as: SIMD8<Float>.self)
            let right = b.loadUnaligned(fromByteOffset: position * 4, as: SIMD8<Float>.self)
            sum += left * right
            if withNorm { squares += right * right }
            position += 8
        }
        var dot = sum.sum()
        var norm = squares.sum()
        while position < count {
            let right = b.loadUnaligned(fromByteOffset: position * 4, as: Float.self)
            dot += a[position] * right
            norm += right * right
            position += 1
        }
        return (dot, norm)
    }

    /// Σ (aᵢ − bᵢ)².
    static func squaredDistance(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeRawBufferPointer) -> Float {
        var sum = SIMD8<Float>()
        let count = a.count
        var position = 0
        while position + 8 <= count {
            let left = UnsafeRawBufferPointer(a).loadUnaligned(fromByteOffset: position * 4, as: SIMD8<Float>.self)
            let difference = left - b.loadUnaligned(fromByteOffset: position * 4, as: SIMD8<Float>.self)
            sum += difference * difference
            position += 8
        }
        var total = sum.sum()
        while position < count {
            let difference = a[position] - b.loadUnaligned(fromByteOffset: position * 4, as: Float.self)
            total += difference * difference
            position += 1
        }
        return total
    }
}

/// The best `k` candidates seen so far, best first.
struct TopK {
    struct Candidate {
        var score: Float
        var key: StoredKey
    }

    let k: Int
    let scorer: VectorScorer
    private(set) var candidates: [Candidate] = []

    init(k: Int, scorer: VectorScorer) {
        self.k = k
        self.scorer = scorer
        candidates.reserveCapacity(k + 1)
    }

    /// Whether `a` ranks ahead of `b`: by score, then by key order.
    func ranksBefore(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.score != b.score { return scorer.ranksBefore(a.score, b.score) }
        if a.key.partition != b.key.partition { return a.key.partition.lexicographicallyPrecedes(b.key.partition) }
        return a.key.sort.lexicographicallyPrecedes(b.key.sort)
    }

    /// Offers an entry; `key` is read only when the entry may be kept.
    mutating func offer(score: Float, key: () -> StoredKey) {
        if candidates.count == k, let worst = candidates.last, scorer.ranksBefore(worst.score, score) { return }
        let candidate = Candidate(score: score, key: key())
        if candidates.count == k, let worst = candidates.last, !ranksBefore(candidate, worst) { return }
        var low = 0
        var high = candidates.count
        while low < high {
            let middle = (low + high) / 2
            if ranksBefore(candidates[middle], candidate) { low = middle + 1 } else { high = middle }
        }
        candidates.insert(candidate, at: low)
        if candidates.count > k { candidates.removeLast() }
    }
}
