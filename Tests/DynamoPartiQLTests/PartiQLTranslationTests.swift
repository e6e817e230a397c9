import DynamoAPI
import DynamoExpressions
@testable import DynamoPartiQL
import Testing

@Suite struct PartiQLTranslationTests {
    let schema = PartiQLSchema(partitionKey: PartiQLKey(name: "pk", type: "S"), sortKey: PartiQLKey(name: "sk", type: "N"))

    private func parse(_ text: String, _ parameters: [AttributeValue] = []) throws -> PartiQLStatement {
        try PartiQLTranslator.parse(text, parameters: parameters).statement
    }

    @Test func selectWithPartitionKeyIsAQueryWithSortRange() throws {
        let statement = try parse("SELECT * FROM t WHERE pk = ? AND 3 < sk AND n = 1 ORDER BY sk DESC", [.s("a")])
        let plan = try PartiQLTranslator.select(statement, schema: schema, parameters: [.s("a")])
        #expect(plan.partitions == [.s("a")])
        #expect(plan.sortCondition == .greater(.n(DynamoNumber(3))))
        #expect(plan.descending)
        let item: Item = ["pk": .s("a"), "sk": .n(DynamoNumber(4)), "n": .n(DynamoNumber(1))]
        #expect(plan.filter?.evaluate(item) == true)
        #expect(plan.filter?.evaluate(item.merging(["n": .n(DynamoNumber(2))]) { $1 }) == false)
    }

    @Test func selectWithoutPartitionKeyScansAndInOrdersPartitions() throws {
        let scan = try PartiQLTranslator.select(
            try parse("SELECT * FROM t WHERE sk = 1 OR pk = 'a'"), schema: schema,
            parameters: [])
        #expect(scan.partitions == nil)
        let alternatives = try PartiQLTranslator.select(
            try parse("SELECT * FROM t WHERE (pk = 'a' OR pk = 'b') AND sk > 1"),
            schema: schema, parameters: [])
        #expect(alternatives.partitions == [.s("a"), .s("b")])
        #expect(alternatives.sortCondition == .greater(.n(DynamoNumber(1))))
        let mixed = try PartiQLTranslator.select(try parse("SELECT * FROM t WHERE pk = 'a' OR n = 1"), schema: schema, parameters: [])
        #expect(mixed.partitions == nil)
        let both = try PartiQLTranslator.select(
            try parse("SELECT * FROM t WHERE pk IN ['b', 'a', 'b'] ORDER BY pk DESC"),
            schema: schema, parameters: [])
        #expect(both.partitions == [.s("b"), .s("a")])
        #expect(throws: PartiQLMessages.orderByHashKeyNeeded) {
            _ = try PartiQLTranslator.select(
                try parse("SELECT * FROM t WHERE pk IN ['b', 'a'] ORDER BY sk"),
                schema: schema, parameters: [])
        }
    }

    @Test func projectionLabelsAreTheLastStep() throws {
        let plan = try PartiQLTranslator.select(try parse("SELECT m.k[1], l[0], m.z FROM t"), schema: schema, parameters: [])
        #expect(plan.projection?.map(\.label) == ["k[1]", "l[0]", "z"])
        #expect(throws: PartiQLMessages.duplicateIdentifier("z")) {
            _ = try PartiQLTranslator.select(try parse("SELECT a.z, b.z FROM t"), schema: schema, parameters: [])
        }
    }

    @Test func updateTranslatesIntoAnUpdateWithExistenceCondition() throws {
        let statement = try parse(
            "UPDATE t SET n = n + ? SET s = set_add(s, <<'x'>>) REMOVE r WHERE pk = 'a' AND sk = 1 AND n < 5",
            [.n(DynamoNumber(2))])
        let plan = try PartiQLTranslator.write(statement, schema: schema, parameters: [.n(DynamoNumber(2))])
        let update = try #require(plan.action.update)
        #expect(update.key == ["pk": .s("a"), "sk": .n(DynamoNumber(1))])
        #expect(update.updateExpression == "SET #n0 = #n0 + :v0 ADD #n1 :v1 REMOVE #n2")
        #expect(update.conditionExpression == "(attribute_exists(#n3)) AND (#n0 < :v2)")
        #expect(update.expressionAttributeNames == ["#n0": "n", "#n1": "s", "#n2": "r", "#n3": "pk"])
        #expect(update.expressionAttributeValues == [":v0": .n(DynamoNumber(2)), ":v1": .ss(["x"]), ":v2": .n(DynamoNumber(5))])
        // The generated expressions compile with DynamoExpressions' own compiler.
        var input = ExpressionInput(.updateItem)
        input.updateExpression = update.updateExpression
        input.conditionExpression = update.conditionExpression
        input.names = update.expressionAttributeNames
        input.values = update.expressionAttributeValues
        let compiled = try ExpressionCompiler.compile(input)
        let updated = try compiled.update!.apply(to: ["pk": .s("a"), "sk": .n(DynamoNumber(1)), "n": .n(DynamoNumber(1)), "r": .null])
        #expect(updated["n"] == .n(DynamoNumber(3)))
        #expect(updated["r"] == nil)
        #expect(updated["s"] == .ss(["x"]))
    }

    @Test func insertAndDeleteAndExists() throws {
        let insert = try PartiQLTranslator.write(
            try parse("INSERT INTO t VALUE {'pk': 'a', 'sk': -1.50}"), schema: schema,
            parameters: [])
        #expect(insert.isInsert)
        #expect(insert.action.put?.item == ["pk": .s("a"), "sk": .n(try DynamoNumber(parsing: "-1.5"))])
        #expect(insert.action.put?.conditionExpression == "attribute_not_exists(#n0)")
        let delete = try PartiQLTranslator.write(try parse("DELETE FROM t WHERE sk = 1 AND pk = 'a'"), schema: schema, parameters: [])
        #expect(delete.action.delete?.conditionExpression == nil)
        let check = try PartiQLTranslator.write(
            try parse("NOT EXISTS(SELECT * FROM t WHERE pk = 'a' AND sk = 1 AND n = 1)"),
            schema: schema, parameters: [])
        #expect(check.action.conditionCheck?.conditionExpression == "(attribute_not_exists(#n0)) OR (NOT (#n1 = :v0))")
    }

    @Test(arguments: [
        ("UPDATE t SET n = 1 WHERE pk = 'a'", "Where clause does not contain a mandatory equality on all key attributes"),
        (
            "UPDATE t SET n = 1 WHERE pk = 'a' AND sk = 1 AND sk = 2",
            "Multiple conditions on same key sk. Only single item Update/Insert/Delete are supported"
        ),
        ("DELETE FROM t WHERE pk = 1 AND sk = 1", "Key attribute's data type should match its data type in table's schema: Key pk"),
        ("UPDATE t SET s = set_add(t, <<1>>) WHERE pk = 'a' AND sk = 1", "The first argument to SET_ADD must equal the assignment value at 1:18:7"),
        (
            "UPDATE t SET s = set_delete(s, [1]) WHERE pk = 'a' AND sk = 1",
            "The second argument to SET_DELETE must be a value with type SET at 1:29:1"
        ),
        ("UPDATE t SET n = n * 2 WHERE pk = 'a' AND sk = 1", "Unsupported operator in Update Expression. Operator: *"),
        (
            "INSERT INTO t VALUE {'pk': 'a', 'sk': 1, 's': <<'a', 'a'>>}",
            "One or more parameter values were invalid: Input collection [a, a] contains duplicates."
        ),
        ("INSERT INTO t VALUE {'pk': 'a', 'sk': 1, 1: 2}", "Tuple keys must be of type String. Actual type: DECIMAL"),
    ])
    func writeRefusals(statement: String, message: String) {
        #expect(throws: DynamoError.validation(message)) {
            _ = try PartiQLTranslator.write(try parse(statement), schema: schema, parameters: [])
        }
    }

    /// A top-level OR whose branches read overlapping parts of one partition is refused, as the
    /// service refuses it; a negated sort-key condition, distinct partitions or disjoint
    /// ranges are not (eu-west-2, October 2026).
    @Test(arguments: [
        ("pk = 'a' AND x = 1 OR pk = 'a' AND sk = 2", true),
        ("pk = 'a' AND x <> 1 OR pk = 'a' AND sk = 2", true),
        ("pk = 'a' OR pk = 'a' AND sk = 2", true),
        ("pk = 'a' AND sk > 1 OR pk = 'a' AND sk >= 5", true),
        ("pk = 'a' AND sk IN [1, 4] OR pk = 'a' AND sk BETWEEN 3 AND 4", true),
        ("pk = 'a' AND NOT sk = 1 OR pk = 'a' AND sk = 2", false),
        ("pk = 'a' AND sk <> 1 OR pk = 'a' AND sk = 2", false),
        ("pk = 'a' OR pk = 'a' AND NOT sk = 1", false),
        ("pk = 'a' AND sk = 1 OR pk = 'a' AND sk = 2", false),
        ("pk = 'a' AND sk < 2 OR pk = 'a' AND sk > 2", false),
        ("pk = 'a' OR pk = 'b' AND sk = 2", false),
        ("pk = 'a' AND sk = 1 OR x = 2", false),
    ])
    func overlappingBranchesAreRefused(where condition: String, refused: Bool) throws {
        let statement = try parse("SELECT * FROM t WHERE " + condition)
        if refused {
            #expect(throws: PartiQLMessages.overlappingRangeConditions) {
                _ = try PartiQLTranslator.select(statement, schema: schema, parameters: [])
            }
        } else {
            #expect(throws: Never.self) { _ = try PartiQLTranslator.select(statement, schema: schema, parameters: []) }
        }
    }

    /// Seeded: two branches with random sort-key conditions over small integers are refused
    /// exactly when some number (on a grid of halves, so that open ranges between integers
    /// count) satisfies both.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func overlapMatchesBruteForce(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func condition() -> (text: String, holds: (Double) -> Bool) {
            let a = Int(random.next() % 6)
            let b = a + Int(random.next() % 4)
            switch random.next() % 7 {
            case 0: return ("sk = \(a)", { $0 == Double(a) })
            case 1: return ("sk < \(a)", { $0 < Double(a) })
            case 2: return ("sk <= \(a)", { $0 <= Double(a) })
            case 3: return ("sk > \(a)", { $0 > Double(a) })
            case 4: return ("sk >= \(a)", { $0 >= Double(a) })
            case 5: return ("sk BETWEEN \(a) AND \(b)", { $0 >= Double(a) && $0 <= Double(b) })
            default: return ("sk IN [\(a), \(b)]", { $0 == Double(a) || $0 == Double(b) })
            }
        }
        for _ in 0..<200 {
            let (left, right) = (condition(), condition())
            let text = "SELECT * FROM t WHERE pk = 'a' AND \(left.text) OR pk = 'a' AND \(right.text)"
            let overlaps = stride(from: -2.0, through: 12.0, by: 0.5).contains { left.holds($0) && right.holds($0) }
            do {
                _ = try PartiQLTranslator.select(try parse(text), schema: schema, parameters: [])
                #expect(!overlaps, "\(text) should be refused")
            } catch {
                #expect(overlaps && (error as? DynamoError) == PartiQLMessages.overlappingRangeConditions, "\(text): \(error)")
            }
        }
    }

    @Test func tooFewParametersIsDynamoDBsError() {
        #expect(throws: PartiQLMessages.parameterCount) {
            _ = try PartiQLTranslator.parse("SELECT * FROM t WHERE pk = ? AND sk = ?", parameters: [.s("a")])
        }
        #expect(throws: Never.self) { _ = try PartiQLTranslator.parse("SELECT * FROM t WHERE pk = ?", parameters: [.s("a"), .s("b")]) }
    }

    /// Seeded byte mutations of valid statements: parsing and translating either succeed or
    /// throw a `ValidationException`, never anything else (and never crash).
    @Test(arguments: [1, 2, 3, 4, 5])
    func mutatedStatementsOnlyThrowValidationErrors(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let templates = [
            "SELECT a, b.c[1] FROM \"T\".\"I\" WHERE pk IN ['a', ?] AND sk BETWEEN 1 AND 5 AND begins_with(s, 'x') ORDER BY sk",
            "INSERT INTO t VALUE {'pk': ?, 'sk': 2, 'm': {'l': [1, 2.5e3, <<'a'>>, NULL, TRUE]}}",
            "UPDATE t SET a.b[2] = list_append(x, [1]) SET n = n - 1 REMOVE q WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED OLD *",
            "NOT EXISTS(SELECT * FROM t WHERE pk = 'a' AND sk = 1 AND attribute_type(x, 'S') AND y IS NOT NULL)",
        ]
        let pieces = [
            "'", "\"", "(", ")", "[", "]", "{", "}", "<<", ">>", ",", ".", "?", "*", "=", "AND", "NOT", "IS",
            "MISSING", "-", "1e999", "/*", "--", "set_add(", "size(",
        ]
        for _ in 0..<400 {
            var bytes = Array(templates[Int(random.next() % UInt64(templates.count))].utf8)
            for _ in 0..<(1 + random.next() % 4) {
                let position = Int(random.next() % UInt64(bytes.count + 1))
                switch random.next() % 3 {
                case 0 where !bytes.isEmpty: bytes.remove(at: min(position, bytes.count - 1))
                case 1: bytes.insert(contentsOf: Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8), at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let statement = try PartiQLTranslator.parse(text, parameters: [.s("a")]).statement
                if statement.isRead {
                    _ = try PartiQLTranslator.select(statement, schema: schema, parameters: [.s("a")])
                } else {
                    _ = try PartiQLTranslator.write(statement, schema: schema, parameters: [.s("a")])
                }
            } catch {
                #expect(error.code == .validation, "\(text): \(error)")
            }
        }
    }
}
