import DynamoAPI

/// A bounded, thread-safe cache of parsed expressions keyed by grammar and text, so that a hot
/// loop of the same request parses (and statically checks) its expressions once. At most
/// `2 × generationSize` entries are kept (see `GenerationalCache`).
final class ExpressionCache: Sendable {
    /// What parsing one expression text gave: its tree, or the first syntax or static problem.
    typealias Entry = Result<RawExpression, ExpressionProblem>

    struct Key: Hashable, Sendable {
        var grammar: ExpressionKind.Grammar
        var text: String
    }

    private let entries: GenerationalCache<Key, Entry>

    /// The process-wide cache.
    static let shared = ExpressionCache(generationSize: 512)

    init(generationSize: Int) {
        entries = GenerationalCache(generationSize: generationSize)
    }

    var generationSize: Int { entries.generationSize }

    /// The parse of `text`, from the cache or computed (outside the lock) and remembered.
    func entry(_ text: String, grammar: ExpressionKind.Grammar) -> Entry {
        entries.value(for: Key(grammar: grammar, text: text)) { key in
            do throws(ExpressionProblem) {
                let expression = try Parser.parse(key.text, grammar: key.grammar)
                try StaticCheck.check(expression)
                return .success(expression)
            } catch {
                return .failure(error)
            }
        }
    }

    /// How many entries are kept now.
    var count: Int { entries.count }
}
