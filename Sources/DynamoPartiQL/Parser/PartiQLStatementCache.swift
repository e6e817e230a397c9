import DynamoAPI

/// Parsed statements by their text, so a statement sent again and again (an SDK's
/// `SELECT * FROM "T" WHERE pk = ?` with new `Parameters` each time) is lexed and parsed once.
///
/// A parse depends on the text alone (parameters are bound later, tables looked up later), so
/// one cache serves every server and namespace of the process, as the expression cache does;
/// syntax errors are remembered too (their message depends on the text alone). Bounded: at most
/// `2 × generationSize` statements are kept, the least recently used dropped first (see
/// `GenerationalCache`).
///
/// ```swift
/// let parsed = try PartiQLStatementCache.shared.parse(#"SELECT * FROM "T" WHERE pk = ?"#)
/// ```
package final class PartiQLStatementCache: Sendable {
    private let entries: GenerationalCache<String, Result<ParsedStatement, DynamoError>>

    /// The process-wide cache.
    package static let shared = PartiQLStatementCache(generationSize: 256)

    package init(generationSize: Int) {
        entries = GenerationalCache(generationSize: generationSize)
    }

    /// `PartiQLParser.parse(text)`, from the cache when this text was parsed before.
    package func parse(_ text: String) throws(DynamoError) -> ParsedStatement {
        try entries.value(for: text) { text in
            do throws(DynamoError) {
                return .success(try PartiQLParser.parse(text))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// How many statements are kept now.
    package var count: Int { entries.count }
}
