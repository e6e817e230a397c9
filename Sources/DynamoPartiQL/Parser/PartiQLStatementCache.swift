import DynamoAPI
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// The last statements parsed or found, newest first: a hot statement is found by comparing
    /// its text (bytes, or identity within one request), which costs far less than hashing it
    /// (a SELECT by key looks its statement up twice, for its placement and its run).
    private let recent = Mutex<[(text: String, parsed: Result<ParsedStatement, DynamoError>)]>([])
    private static let recentCount = 4

    /// The process-wide cache.
    package static let shared = PartiQLStatementCache(generationSize: 256)

    package init(generationSize: Int) {
        entries = GenerationalCache(generationSize: generationSize)
    }

    /// `PartiQLParser.parse(text)`, from the cache when this text was parsed before.
    package func parse(_ text: String) throws(DynamoError) -> ParsedStatement {
        let known = recent.withLock { entries in entries.first { Self.sameBytes($0.text, text) }?.parsed }
        if let known { return try known.get() }
        let parsed = entries.value(for: text) { text in
            do throws(DynamoError) {
                return .success(try PartiQLParser.parse(text))
            } catch {
                return .failure(error)
            }
        }
        recent.withLock { entries in
            if entries.count >= Self.recentCount { entries.removeLast() }
            entries.insert((text, parsed), at: 0)
        }
        return try parsed.get()
    }

    /// Whether two texts are the same bytes. `==` compares by canonical equivalence, which for
    /// two copies of one statement (each request decodes its own) walks them through the
    /// Unicode comparison; equal bytes are all a hit needs (canonically equal texts of other
    /// bytes are found by the generational cache, which hashes them).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (lhs.utf8, rhs.utf8)
        guard left.count == right.count else { return false }
        let same = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        return same.flatMap { $0 } ?? left.elementsEqual(right)
    }

    /// How many statements are kept now.
    package var count: Int { entries.count }
}
