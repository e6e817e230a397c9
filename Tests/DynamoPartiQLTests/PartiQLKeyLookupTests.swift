import DynamoAPI
@testable import DynamoPartiQL
import Testing

@Suite("PartiQLKeyLookup")
struct PartiQLKeyLookupTests {
    let composite = PartiQLSchema(partitionKey: PartiQLKey(name: "pk", type: "S"), sortKey: PartiQLKey(name: "sk", type: "N"))
    let simple = PartiQLSchema(partitionKey: PartiQLKey(name: "pk", type: "S"))

    private func lookup(_ text: String) throws -> PartiQLKeyLookup? {
        try PartiQLParser.parse(text).keyLookup
    }

    @Test("equalities on the whole key bind to the key, in either order and either side")
    func bindsTheKey() throws {
        let both = try #require(try lookup(#"SELECT * FROM "T" WHERE ? = sk AND pk = ?"#))
        #expect(both.table == "T")
        #expect(both.projection == nil)
        #expect(both.key(in: composite, parameters: [.n(DynamoNumber(1)), .s("a")]) == ["pk": .s("a"), "sk": .n(DynamoNumber(1))])
        // Only a table whose key is exactly these attributes, with values of its types.
        #expect(both.key(in: simple, parameters: [.n(DynamoNumber(1)), .s("a")]) == nil)
        #expect(both.key(in: composite, parameters: [.s("1"), .s("a")]) == nil)
        let literal = try #require(try lookup("SELECT a.b, c FROM T WHERE pk = 'x'"))
        #expect(literal.key(in: simple, parameters: []) == ["pk": .s("x")])
        #expect(literal.key(in: composite, parameters: []) == nil)
        #expect(literal.projection?.map(\.label) == ["b", "c"])
    }

    @Test(
        "anything but distinct top-level equalities, without index or ORDER BY, is planned in full",
        arguments: [
            "SELECT * FROM T", "SELECT * FROM T WHERE pk = ? OR sk = ?", "SELECT * FROM T WHERE pk > ?",
            "SELECT * FROM T WHERE pk = ? AND pk = ?", "SELECT * FROM T WHERE a.b = ?", "SELECT * FROM T WHERE pk = -1",
            "SELECT * FROM T WHERE pk = sk", #"SELECT * FROM "T"."I" WHERE pk = ?"#,
            "SELECT * FROM T WHERE pk = ? ORDER BY pk", "SELECT a.b, b FROM T WHERE pk = ?",
            "SELECT * FROM T WHERE pk IN [?]", "UPDATE T SET a = 1 WHERE pk = ?", "DELETE FROM T WHERE pk = ?",
        ])
    func notLookups(text: String) throws {
        #expect(try lookup(text) == nil)
    }

    @Test("a lookup still needs as many parameters as it has `?`")
    func parameterCount() {
        #expect(throws: PartiQLMessages.parameterCount) {
            _ = try PartiQLTranslator.parse("SELECT * FROM T WHERE pk = ? AND sk = ?", parameters: [.s("a")])
        }
    }
}
