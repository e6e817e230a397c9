import Synchronization

/// A bounded, thread-safe cache of parsed expressions keyed by grammar and text, so that a hot
/// loop of the same request parses (and statically checks) its expressions once.
///
/// It keeps two generations: lookups find entries in either and promote them; when the young
/// generation fills up it becomes the old one and the previous old one is dropped. So at most
/// `2 × generationSize` entries are kept and a hit costs one lock and one or two hash lookups.
final class ExpressionCache: Sendable {
    /// What parsing one expression text gave: its tree, or the first syntax or static problem.
    typealias Entry = Result<RawExpression, ExpressionProblem>

    struct Key: Hashable, Sendable {
        var grammar: ExpressionKind.Grammar
        var text: String
    }

    private struct Generations: Sendable {
        var young: [Key: Entry] = [:]
        var old: [Key: Entry] = [:]
    }

    private let generations = Mutex(Generations())
    let generationSize: Int

    /// The process-wide cache.
    static let shared = ExpressionCache(generationSize: 512)

    init(generationSize: Int) {
        self.generationSize = generationSize
    }

    /// The parse of `text`, from the cache or computed (outside the lock) and remembered.
    func entry(_ text: String, grammar: ExpressionKind.Grammar) -> Entry {
        let key = Key(grammar: grammar, text: text)
        if let cached = lookup(key) { return cached }
        let entry: Entry
        do throws(ExpressionProblem) {
            let expression = try Parser.parse(text, grammar: grammar)
            try StaticCheck.check(expression)
            entry = .success(expression)
        } catch {
            entry = .failure(error)
        }
        store(key, entry)
        return entry
    }

    /// How many entries are kept now.
    var count: Int { generations.withLock { $0.young.count + $0.old.count } }

    private func lookup(_ key: Key) -> Entry? {
        generations.withLock { state in
            if let hit = state.young[key] { return hit }
            guard let hit = state.old[key] else { return nil }
            state.young[key] = hit
            rotateIfFull(&state)
            return hit
        }
    }

    private func store(_ key: Key, _ entry: Entry) {
        generations.withLock { state in
            state.young[key] = entry
            rotateIfFull(&state)
        }
    }

    private func rotateIfFull(_ state: inout Generations) {
        guard state.young.count >= generationSize else { return }
        state.old = state.young
        state.young = [:]
    }
}
