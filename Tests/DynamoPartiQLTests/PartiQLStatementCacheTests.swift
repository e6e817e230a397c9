import DynamoAPI
@testable import DynamoPartiQL
import Testing

@Suite("PartiQLStatementCache")
struct PartiQLStatementCacheTests {
    @Test("a statement parses as the parser parses it, and is kept once")
    func parsesLikeTheParser() throws {
        let cache = PartiQLStatementCache(generationSize: 8)
        let text = #"SELECT * FROM "T" WHERE pk = ? AND sk = ?"#
        for _ in 0..<3 {
            let parsed = try cache.parse(text)
            guard case .select(let select) = parsed.statement else { Issue.record("not a select"); return }
            #expect(select.table == "T")
            #expect(parsed.parameterCount == 2)
        }
        #expect(cache.count == 1)
    }

    @Test("a syntax error is the parser's, every time")
    func remembersErrors() {
        let cache = PartiQLStatementCache(generationSize: 8)
        let text = "SELECT * FROM"
        var expected: DynamoError?
        do { _ = try PartiQLParser.parse(text) } catch { expected = error }
        #expect(expected != nil)
        for _ in 0..<2 {
            #expect(throws: expected!) { _ = try cache.parse(text) }
        }
        #expect(cache.count == 1)
    }

    @Test("bounded: many distinct statements keep at most two generations")
    func bounded() throws {
        let cache = PartiQLStatementCache(generationSize: 4)
        for n in 0..<50 {
            _ = try cache.parse("SELECT * FROM T WHERE pk = '\(n)'")
            #expect(cache.count <= 8)
        }
    }

    /// Statements that differ in their last character, in a seeded random order: each parse
    /// names its own table (the last statements are compared by text, not length or place).
    @Test("the last statements are told apart by their text", arguments: [5, 9] as [UInt64])
    func recentStatementsByText(seed: UInt64) throws {
        let cache = PartiQLStatementCache(generationSize: 3)
        var random = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let table = "T" + String(random.next() % 7)
            let parsed = try cache.parse(#"SELECT * FROM "\#(table)""#)
            #expect(parsed.statement.table == table)
        }
    }
}
