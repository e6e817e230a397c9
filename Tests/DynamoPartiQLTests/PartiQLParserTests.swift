import DynamoAPI
import DynamoExpressions
@testable import DynamoPartiQL
import Testing

@Suite struct PartiQLParserTests {
    @Test func parsesSelectWithIndexProjectionAndOrder() throws {
        let parsed = try PartiQLParser.parse(#"SELECT a, "b c".d[2] FROM "T"."I" WHERE pk = ? AND sk > 3 ORDER BY sk DESC;"#)
        guard case .select(let select) = parsed.statement else { Issue.record("not a select"); return }
        #expect(select.table == "T")
        #expect(select.index == "I")
        #expect(select.projection == [DocumentPath(attribute: "a"), DocumentPath([.attribute("b c"), .attribute("d"), .index(2)])])
        #expect(select.orderBy.map(\.name) == ["sk"])
        #expect(select.orderBy.map(\.descending) == [true])
        #expect(parsed.parameterCount == 1)
    }

    @Test func parsesWritesAndComments() throws {
        let insert = try PartiQLParser.parse("-- note\nINSERT INTO t VALUE {'pk': 'a', 'n': 1.50, 's': <<1, 2>>} /* end */")
        guard case .insert(let table, nil, .tuple(let pairs)) = insert.statement else { Issue.record("not an insert"); return }
        #expect(table == "t")
        #expect(pairs.count == 3)
        let update = try PartiQLParser.parse(
            #"update "T" set a = a + 1 set b = list_append(b, [?]) remove c where pk = 'x' returning modified new *"#)
        guard case .update(_, _, let clauses, _, let returning) = update.statement else { Issue.record("not an update"); return }
        #expect(clauses.count == 3)
        #expect(returning == .modifiedNew)
        let delete = try PartiQLParser.parse(#"DELETE FROM "T" WHERE pk = 'x' RETURNING ALL OLD *"#)
        guard case .delete(_, _, _, .allOld) = delete.statement else { Issue.record("not a delete"); return }
    }

    @Test(arguments: [
        ("SELEC * FROM t", "Statement wasn't well formed, can't be processed: Expected data manipulation"),
        ("", "Statement wasn't well formed, can't be processed: Expected data manipulation"),
        // A bare type test parses and is refused by its operation; other bare expressions are
        // not data manipulation (eu-west-2, October 2026).
        ("x IS INT4", "Unsupported operation: IsType"),
        ("x IS DOUBLE PRECISION;", "Unsupported operation: IsType"),
        ("x IS CHARACTER VARYING", "Unsupported operation: IsType"),
        ("x IS INT4 foo", "Statement wasn't well formed, can't be processed: Expected data manipulation"),
        ("x = 1", "Statement wasn't well formed, can't be processed: Expected data manipulation"),
        ("SELECT * FROM t WHERE pad = 'x'", "Statement wasn't well formed, can't be processed: Unexpected keyword"),
        ("SELECT * FROM t WHERE a = ", "Statement wasn't well formed, can't be processed: Unexpected term"),
        ("SELECT * FROM t WHERE a = 'x", "Statement wasn't well formed, can't be processed: Unexpected end of statement"),
        ("SELECT * FROM t LIMIT 1", "Unsupported clause: LIMIT"),
        ("SELECT *, a FROM t", "Other attributes should not be present in the projection when '*' is used."),
        ("SELECT * FROM \"t\".\"i\".\"j\"", "A path may contain at most 2 components in the FROM clause"),
        (
            "INSERT INTO t VALUE 'x'",
            "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement."
        ),
        ("INSERT INTO t VALUE {'pk': 'a'} RETURNING ALL OLD *", "RETURNING is not supported in INSERT"),
        (
            "DELETE FROM t WHERE pk = 'a' RETURNING ALL NEW *",
            "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements."
        ),
        ("SELECT a[*] FROM t", "Wildcard path component like a[*].b are not supported"),
        ("SELECT * FROM t; SELECT * FROM t", "Statement wasn't well formed, can't be processed: Unexpected keyword"),
    ])
    func refusesWithDynamoDBsWording(statement: String, message: String) {
        #expect(throws: DynamoError.validation(message)) { _ = try PartiQLParser.parse(statement) }
    }

    /// A call in the select list of an index read waits for the index's checks (the service
    /// refuses a multi-attribute index first); of a table read, or when the rest does not
    /// parse, it is refused at once.
    @Test func selectListCallOfAnIndexReadWaitsForTheIndex() throws {
        let refusal = DynamoError.validation("Unexpected path component at 1:8:5")
        let indexRead = try PartiQLParser.parse(#"SELECT COUNT(*) FROM "T"."I" WHERE a = 1"#)
        #expect(indexRead.statement.projectionError == refusal)
        #expect(indexRead.statement.index == "I")
        #expect(throws: refusal) {
            _ = try PartiQLTranslator.select(indexRead.statement, schema: nil, parameters: [])
        }
        for text in [#"SELECT COUNT(*) FROM "T""#, #"SELECT COUNT(*) FRM "T"."I""#, #"SELECT COUNT(*) FROM "T"."I" WHERE"#] {
            #expect(throws: refusal) { _ = try PartiQLParser.parse(text) }
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let text = "SELECT * FROM t WHERE " + String(repeating: "(", count: 5000) + "a = 1" + String(repeating: ")", count: 5000)
        #expect(throws: DynamoError.self) { _ = try PartiQLParser.parse(text) }
    }
}
