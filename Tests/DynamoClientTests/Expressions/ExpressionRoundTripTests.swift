import DynamoAPI
import DynamoTestSupport
import Testing
@testable import DynamoClient

/// Every built expression sent to LocalDynamo: it parses, and it means what the builder says
/// (the server's answer equals ``ReferenceEvaluator``'s, which follows DynamoDB's documentation).
struct ExpressionRoundTripTests {
    typealias C = ConditionExpression
    static let table = "RoundTrip"

    /// A server with the table `RoundTrip` (`pk` S, `sk` N) holding seeded random items.
    private func withItems(seed: UInt64, _ body: (DynamoClient, [Item]) async throws -> Void) async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            _ = try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [
                        AttributeDefinition(attributeName: "pk", attributeType: .s),
                        AttributeDefinition(attributeName: "sk", attributeType: .n),
                    ],
                    tableName: Self.table,
                    keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash), KeySchemaElement(attributeName: "sk", keyType: .range)],
                    billingMode: .payPerRequest))
            var generator = ExpressionGenerator(seed: seed)
            var items: [Item] = []
            for pk in ["p0", "p1", "p2"] {
                for sk in -2..<8 { items.append(generator.item(pk: pk, sk: sk)) }
            }
            try await client.batchWriteAll([Self.table: items.map { WriteRequest(putRequest: PutRequest(item: $0)) }])
            try await body(client, items)
        }
    }

    private static func key(_ item: Item) -> String { "\(item["pk"]!)/\(item["sk"]!)" }

    private func scanKeys(_ client: DynamoClient, filter: ConditionExpression) async throws -> Set<String> {
        var keys: Set<String> = []
        for try await item in client.scanItems(try ScanInput(tableName: Self.table).with(Expressions(filter: filter))) {
            keys.insert(Self.key(item))
        }
        return keys
    }

    @Test func handwrittenConditionsFilterAsTheReferenceSays() async throws {
        let conditions: [ConditionExpression] = [
            C.attribute("status") == "open" && .attributeNotExists("lockedBy"),
            C.attribute("a") == 1 || C.attribute("b") == "a" && !C.attributeExists("flag"),
            !(C.attribute("a") == 1 || C.attribute("b") == "a") && C.attribute("m.x").between(0, 4),
            C.size("list") > 2 || C.size("tags") <= 1,
            C.attribute("list[0]").in([1, 2, "a"]) || .contains("tags", "a") || .contains("list", 3),
            .beginsWith("b", "a") || .attributeType("m.inner", .list) && C.attribute("m.inner[1]") >= 0,
            C.attribute(.name("dot.ted")) != 3 || C.attribute(.name("with space")) == "x",
            C.attribute("m.missing.deep") == 1 || !(C.attribute("nul") == .value(.null)),
        ].map { $0 }
        try await withItems(seed: 7) { client, items in
            for condition in conditions {
                let expected = Set(items.filter { ReferenceEvaluator.evaluate(condition, $0) }.map(Self.key))
                let rendered = try condition.rendered().condition ?? ""
                #expect(try await scanKeys(client, filter: condition) == expected, "\(rendered)")
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomConditionsFilterAsTheReferenceSays(seed: UInt64) async throws {
        try await withItems(seed: seed) { client, items in
            var generator = ExpressionGenerator(seed: seed &* 7919)
            for round in 0..<80 {
                let condition = generator.condition(depth: 3)
                let rendered = try condition.rendered()
                let expected = Set(items.filter { ReferenceEvaluator.evaluate(condition, $0) }.map(Self.key))
                #expect(
                    try await scanKeys(client, filter: condition) == expected,
                    "seed \(seed) round \(round): \(rendered.condition ?? "") \(rendered.names) \(rendered.values)")
            }
        }
    }

    @Test func conditionsGuardWritesAsTheReferenceSays() async throws {
        try await withItems(seed: 11) { client, items in
            var generator = ExpressionGenerator(seed: 99)
            for item in items.prefix(20) {
                let condition = generator.condition(depth: 2)
                let key: Item = ["pk": item["pk"]!, "sk": item["sk"]!]
                let holds = ReferenceEvaluator.evaluate(condition, item)
                let text = try condition.rendered().condition ?? ""
                do {
                    _ = try await client.updateItem(
                        UpdateItemInput(tableName: Self.table, key: key),
                        update: .set("touched", true), condition: condition)
                    #expect(holds, "\(text)")
                } catch let error as DynamoError where error.code == .conditionalCheckFailed {
                    #expect(!holds, "\(text)")
                }
            }
        }
    }

    @Test(arguments: [4, 5] as [UInt64])
    func randomKeyConditionsQueryAsTheReferenceSays(seed: UInt64) async throws {
        try await withItems(seed: seed) { client, items in
            var generator = ExpressionGenerator(seed: seed)
            for _ in 0..<40 {
                let pk = generator.random.pick(["p0", "p1", "p2", "none"])
                var key = KeyConditionExpression.partition("pk", ExpressionValue(.s(pk)))
                var sort: KeyConditionExpression.SortCondition?
                if generator.random.chance(80) {
                    sort = generator.sortCondition()
                    key = key.sort("sk", sort!)
                }
                let expected = items.filter { item in
                    item["pk"] == .s(pk) && sort.map { ReferenceEvaluator.matches(item["sk"]!, $0) } ?? true
                }.map(Self.key)
                var found: [String] = []
                let input = try QueryInput(tableName: Self.table).with(Expressions(keyCondition: key))
                for try await item in client.queryItems(input) { found.append(Self.key(item)) }
                let text = try key.rendered().keyCondition ?? ""
                #expect(found == expected, "\(text)")
            }
        }
    }

    @Test func beginsWithKeyConditionAndProjection() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            _ = try await client.createTable(
                CreateTableInput(
                    attributeDefinitions: [
                        AttributeDefinition(attributeName: "pk", attributeType: .s),
                        AttributeDefinition(attributeName: "sk", attributeType: .s),
                    ],
                    tableName: "Days",
                    keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash), KeySchemaElement(attributeName: "sk", keyType: .range)],
                    billingMode: .payPerRequest))
            for day in ["2025-12-31", "2026-01-01", "2026-02-03", "2027-01-01"] {
                _ = try await client.putItem(
                    PutItemInput(
                        tableName: "Days",
                        item: [
                            "pk": .s("a"), "sk": .s(day), "size": .m(["w": .n(DynamoNumber(1)), "h": .l([.s("x"), .s("y")])]), "name": .s(day),
                        ]))
            }
            let output = try await client.query(
                QueryInput(tableName: "Days"),
                keyCondition: .partition("pk", "a").sort("sk", .beginsWith("2026-")),
                filter: C.attribute("size.w") == 1, projection: ["sk", "size.h[1]"])
            #expect(
                output.items == [
                    ["sk": .s("2026-01-01"), "size": .m(["h": .l([.s("y")])])],
                    ["sk": .s("2026-02-03"), "size": .m(["h": .l([.s("y")])])],
                ])
            let got = try await client.getItem(
                GetItemInput(tableName: "Days", key: ["pk": .s("a"), "sk": .s("2027-01-01")]),
                projection: ["name", "size.w"])
            #expect(got.item == ["name": .s("2027-01-01"), "size": .m(["w": .n(DynamoNumber(1))])])
        }
    }

    @Test(arguments: [6, 7] as [UInt64])
    func randomUpdatesApplyAsTheReferenceSays(seed: UInt64) async throws {
        try await withItems(seed: seed) { client, items in
            var generator = ExpressionGenerator(seed: seed)
            for (round, original) in items.enumerated() {
                var base = original
                if generator.random.chance(50) { base["count"] = generator.number() }
                _ = try await client.putItem(PutItemInput(tableName: Self.table, item: base))
                let update = ReferenceUpdate.random(&generator)
                let expected = ReferenceUpdate.apply(update, to: base)
                let key: Item = ["pk": base["pk"]!, "sk": base["sk"]!]
                let rendered = try update.rendered()
                let text = "round \(round): \(rendered.update ?? "") \(rendered.values) on \(base)"
                do {
                    var input = UpdateItemInput(tableName: Self.table, key: key)
                    input.returnValues = .allNew
                    let output = try await client.updateItem(input, update: update)
                    #expect(expected != nil && output.attributes == expected, "\(text)")
                } catch let error as DynamoError where error.code == .validation {
                    #expect(expected == nil, "\(text): \(error)")
                }
            }
        }
    }

    @Test func nestedUpdatesAndEveryFunction() async throws {
        try await withItems(seed: 3) { client, _ in
            let key: Item = ["pk": .s("n"), "sk": .n(DynamoNumber(0))]
            _ = try await client.putItem(
                PutItemInput(
                    tableName: Self.table,
                    item: key.merging([
                        "m": .m(["list": .l([.n(DynamoNumber(1)), .n(DynamoNumber(2))]), "count": .n(DynamoNumber(5))]),
                        "status": .s("draft"), "draft": .bool(true), "tags": .ss(["a", "b"]), "flags": .ss(["a", "b"]),
                    ]) { $1 }))
            var input = UpdateItemInput(tableName: Self.table, key: key)
            input.returnValues = .allNew
            let output = try await client.updateItem(
                input,
                update: .set("m.count", .add(1)).set("m.list[1]", 20).set("m.new", .ifNotExists("m.count", 0))
                    .set("status", "open").remove("draft").add("tags", .ss(["c"]))
                    .delete("flags", .ss(["a"])).set("views", .add(1, ifMissing: 0)),
                condition: C.attribute("status") == "draft" && .attributeNotExists("lockedBy")
            )
            .attributes
            #expect(
                output
                    == key.merging([
                        "m": .m(["list": .l([.n(DynamoNumber(1)), .n(DynamoNumber(20))]), "count": .n(DynamoNumber(6)), "new": .n(DynamoNumber(5))]),
                        "status": .s("open"), "tags": .ss(["a", "b", "c"]), "flags": .ss(["b"]), "views": .n(DynamoNumber(1)),
                    ]) { $1 })
        }
    }
}
