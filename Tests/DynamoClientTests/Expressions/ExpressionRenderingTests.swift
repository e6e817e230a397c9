import DynamoAPI
import Testing
@testable import DynamoClient

/// The exact strings and maps the builder renders, and what it refuses before sending.
struct ExpressionRenderingTests {
    typealias C = ConditionExpression

    @Test func conditionFromTheIssue() throws {
        let rendered = try (C.attribute("status") == "open" && .attributeNotExists("lockedBy")).rendered()
        #expect(rendered.condition == "#n0 = :v0 AND attribute_not_exists(#n1)")
        #expect(rendered.names == ["#n0": "status", "#n1": "lockedBy"])
        #expect(rendered.values == [":v0": .s("open")])
    }

    @Test func namesAndValuesAreDeduplicatedInOrderOfAppearance() throws {
        let rendered = try (C.attribute("a.b[2].c") == 1 || C.attribute("a") == 1 && C.attribute("c") != "x").rendered()
        #expect(rendered.condition == "#n0.#n1[2].#n2 = :v0 OR #n0 = :v0 AND #n2 <> :v1")
        #expect(rendered.names == ["#n0": "a", "#n1": "b", "#n2": "c"])
        #expect(rendered.values == [":v0": .n(DynamoNumber(1)), ":v1": .s("x")])
    }

    @Test(
        arguments: [
            (C.attribute("a") == 1 && (C.attribute("b") == 2 || C.attribute("c") == 3), "#n0 = :v0 AND (#n1 = :v1 OR #n2 = :v2)"),
            ((C.attribute("a") == 1 && C.attribute("b") == 2) || C.attribute("c") == 3, "#n0 = :v0 AND #n1 = :v1 OR #n2 = :v2"),
            (!(C.attribute("a") == 1 || C.attribute("b") == 2), "NOT (#n0 = :v0 OR #n1 = :v1)"),
            (!(C.attribute("a") == 1 && C.attribute("b") == 2), "NOT (#n0 = :v0 AND #n1 = :v1)"),
            (!(!C.attributeExists("a")), "NOT NOT attribute_exists(#n0)"),
            (!C.attribute("a").between(1, 5) && C.attribute("b").in(["x", "y"]), "NOT #n0 BETWEEN :v0 AND :v1 AND #n1 IN (:v2, :v3)"),
            (
                (C.attribute("a") == 1 || C.attribute("b") == 2) && (C.attribute("c") == 3 || C.attribute("d") == 4),
                "(#n0 = :v0 OR #n1 = :v1) AND (#n2 = :v2 OR #n3 = :v3)"
            ),
        ] as [(ConditionExpression, String)])
    func parenthesesOnlyWherePrecedenceNeedsThem(condition: ConditionExpression, expected: String) throws {
        #expect(try condition.rendered().condition == expected)
    }

    @Test func everyFunction() throws {
        let condition =
            C.attributeExists("a") && .attributeNotExists("b") && .attributeType("c", .stringSet)
            && .beginsWith("d", "pre") && .contains("e", 5) && C.size("f") >= 3 && C.attribute("g") < .size("h")
        let rendered = try condition.rendered()
        #expect(
            rendered.condition == "attribute_exists(#n0) AND attribute_not_exists(#n1) AND attribute_type(#n2, :v0) "
                + "AND begins_with(#n3, :v1) AND contains(#n4, :v2) AND size(#n5) >= :v3 AND #n6 < size(#n7)")
        #expect(rendered.values == [":v0": .s("SS"), ":v1": .s("pre"), ":v2": .n(DynamoNumber(5)), ":v3": .n(DynamoNumber(3))])
    }

    @Test func reservedWordsAndOddNamesAlwaysGoThroughPlaceholders() throws {
        let rendered = try (C.attribute(.name("size.of")) == "x" && C.attribute("status") == "y").rendered()
        #expect(rendered.condition == "#n0 = :v0 AND #n1 = :v1")
        #expect(rendered.names == ["#n0": "size.of", "#n1": "status"])
    }

    @Test func updateFromTheIssueAndEveryAction() throws {
        #expect(try UpdateExpression.set("count", .add(1)).remove("draft").rendered().update == "SET #n0 = #n0 + :v0 REMOVE #n1")
        let update = UpdateExpression.remove("old").set("views", .add(1, ifMissing: 0)).set("title", "T")
            .set("log", .appending([.s("x")])).set("first", .prepending([.s("y")])).set("made", .ifNotExists("now"))
            .set("copy", .path("title2")).set("left", .subtract(2)).set("sum", .path("p") + .path("q"))
            .set("fallback", .ifNotExists("other", 7)).set("joined", .listAppend(.path("l1"), .path("l2")))
            .add("tags", .ss(["a"])).delete("flags", .ss(["b"]))
        let rendered = try update.rendered()
        #expect(
            rendered.update == "SET #n0 = if_not_exists(#n0, :v0) + :v1, #n1 = :v2, #n2 = list_append(#n2, :v3), "
                + "#n3 = list_append(:v4, #n3), #n4 = if_not_exists(#n4, :v5), #n5 = #n6, #n7 = #n7 - :v6, #n8 = #n9 + #n10, "
                + "#n11 = if_not_exists(#n12, :v7), #n13 = list_append(#n14, #n15) REMOVE #n16 ADD #n17 :v8 DELETE #n18 :v9")
        #expect(rendered.names["#n16"] == "old")
        #expect(rendered.values[":v0"] == .n(DynamoNumber(0)))
    }

    @Test func keyConditionFromTheIssue() throws {
        let rendered = try KeyConditionExpression.partition("pk", "a").sort("sk", .beginsWith("2026-")).rendered()
        #expect(rendered.keyCondition == "#n0 = :v0 AND begins_with(#n1, :v1)")
        #expect(rendered.names == ["#n0": "pk", "#n1": "sk"])
        #expect(rendered.values == [":v0": .s("a"), ":v1": .s("2026-")])
        let between = try KeyConditionExpression.partition("pk", 1).sort("sk", .between(2, 9)).rendered()
        #expect(between.keyCondition == "#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2")
    }

    @Test func keyConditionFromAConditionAcceptsOnlyKeyOperators() throws {
        let key = try KeyConditionExpression(
            C.attribute("pk") == "a" && C.value(.s("m")) <= C.attribute("sk"),
            partitionKey: "pk", sortKey: "sk")
        #expect(try key.rendered().keyCondition == "#n0 = :v0 AND #n1 >= :v1")
        let refused: [(ConditionExpression, String)] = [
            (C.attribute("pk") == "a" || C.attribute("sk") == "b", "OR"),
            (C.attribute("pk") == "a" && C.attribute("sk") != "b", "<>"),
            (C.attribute("pk") == "a" && C.attribute("sk").in(["b"]), "IN"),
            (C.attribute("pk") == "a" && .contains("sk", "b"), "begins_with only"),
            (C.attribute("pk") == "a" && C.attribute("other") == "b", "only the key attributes"),
            (C.attribute("sk") == "b", "needs pk = value"),
            (C.attribute("pk") == "a" && !(C.attribute("sk") == "b"), "NOT"),
        ]
        for (condition, fragment) in refused {
            #expect(throws: ExpressionBuildError.self) { try KeyConditionExpression(condition, partitionKey: "pk", sortKey: "sk") }
            do {
                _ = try KeyConditionExpression(condition, partitionKey: "pk", sortKey: "sk")
            } catch {
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }

    @Test func projection() throws {
        let rendered = try (["id", "status", "address.city", "tags[0]"] as ProjectionExpression).rendered()
        #expect(rendered.projection == "#n0, #n1, #n2.#n3, #n4[0]")
        #expect(rendered.values.isEmpty)
    }

    @Test(
        arguments: [
            (Expressions(condition: C.attribute("a").in([])), "IN needs at least one value"),
            (Expressions(condition: C.attribute("a").in((0...100).map { ExpressionOperand(integerLiteral: $0) })), "at most 100"),
            (Expressions(update: UpdateExpression.set("a", 1).set("a", 2)), "overlapping paths a and a"),
            (Expressions(update: UpdateExpression.set("a", 1).remove("a.b")), "overlapping paths a and a.b"),
            (Expressions(update: UpdateExpression.set("a[0]", 1).remove("a.b")), "both a map and a list"),
            (Expressions(update: UpdateExpression()), "at least one action"),
            (Expressions(update: UpdateExpression.add("a", .s("x"))), "ADD takes a number or a set"),
            (Expressions(update: UpdateExpression.delete("a", .n(DynamoNumber(1)))), "DELETE takes a set"),
            (Expressions(update: UpdateExpression.set("a", .path("b") + .path("c") + 1)), "nested arithmetic"),
            (Expressions(update: UpdateExpression.set("a", .add("x"))), "+ takes numbers"),
            (Expressions(update: UpdateExpression.set("a", .listAppend(.path("b"), 1))), "list_append takes lists"),
            (Expressions(update: UpdateExpression.set("a", .value(.ss([])))), "SS value may not be empty"),
            (Expressions(update: UpdateExpression.set("a", .value(.ns([DynamoNumber(1), DynamoNumber(1)])))), "duplicates"),
            (Expressions(keyCondition: .partition("pk", 1).sort("sk", .beginsWith(ExpressionValue(.n(DynamoNumber(1)))))), "begins_with"),
            (Expressions(keyCondition: .partition("pk", 1).sort("sk", .between(9, 2))), "lower bound"),
            (Expressions(keyCondition: .partition("pk", ExpressionValue(.bool(true)))), "not BOOL"),
            (Expressions(keyCondition: .partition("pk", 1).sort("pk", .equal(2))), "names pk twice"),
            (Expressions(condition: C.attribute("a") < .value(.bool(true))), "< compares strings, numbers and binaries"),
            (Expressions(condition: C.attribute("a") == .path("a")), "must differ"),
            (Expressions(condition: .beginsWith("a", 3)), "string or binary prefix"),
            (Expressions(condition: C.attribute("a..b") == 1), "invalid attribute path"),
            (Expressions(condition: C.attribute("a[x]") == 1), "non-negative integer"),
            (Expressions(projection: []), "at least one path"),
            (Expressions(projection: ["a.b", "a"]), "overlapping"),
            (Expressions(condition: C.attribute(AttributePath((0..<33).map { "p\($0)" }.joined(separator: "."))) == 1), "nesting levels"),
        ] as [(Expressions, String)])
    func refusesWhatDynamoDBRejects(expressions: Expressions, fragment: String) {
        do {
            let rendered = try expressions.rendered()
            Issue.record("rendered \(rendered) instead of failing with \(fragment)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func longExpressionsAreRefused() {
        let many = C.any((0..<400).map { C.attribute("attribute\($0)") == 1 })!
        #expect(throws: ExpressionBuildError.self) { try many.rendered() }
    }

    @Test func renderingIsDeterministic() throws {
        let expressions = Expressions(
            keyCondition: .partition("pk", "a"), filter: C.attribute("x").in([1, 2, 3]),
            projection: ["pk", "x"])
        let first = try expressions.rendered()
        for _ in 0..<20 { #expect(try expressions.rendered() == first) }
        #expect(first.names == ["#n0": "pk", "#n1": "x"])
        #expect(first.filter == "#n1 IN (:v1, :v2, :v3)")
    }

    @Test func mergesBesideRawStringsAvoidingTheirPlaceholders() throws {
        let input = QueryInput(
            tableName: "t", filterExpression: "#n0 = :v0",
            expressionAttributeNames: ["#n0": "raw"], expressionAttributeValues: [":v0": .s("r")])
        let merged = try input.with(Expressions(keyCondition: .partition("pk", "a"), projection: ["pk"]))
        #expect(merged.keyConditionExpression == "#n1 = :v1")
        #expect(merged.projectionExpression == "#n1")
        #expect(merged.filterExpression == "#n0 = :v0")
        #expect(merged.expressionAttributeNames == ["#n0": "raw", "#n1": "pk"])
        #expect(merged.expressionAttributeValues == [":v0": .s("r"), ":v1": .s("a")])
    }

    @Test func refusesAKindTheOperationDoesNotTakeOrAlreadyHas() {
        #expect(throws: ExpressionBuildError("GetItem takes no FilterExpression")) {
            try GetItemInput(tableName: "t", key: [:]).with(Expressions(filter: C.attribute("a") == 1))
        }
        #expect(throws: ExpressionBuildError("Scan already has a FilterExpression string; give it raw or built, not both")) {
            try ScanInput(tableName: "t", filterExpression: "a = :b").with(Expressions(filter: C.attribute("a") == 1))
        }
    }

    @Test func transactionActions() throws {
        let update = try Update(key: ["id": .s("1")], tableName: "t", update: .set("n", .add(1)), condition: .attributeExists("id"))
        #expect(update.updateExpression == "SET #n0 = #n0 + :v0")
        #expect(update.conditionExpression == "attribute_exists(#n1)")
        let check = try ConditionCheck(key: ["id": .s("1")], tableName: "t", condition: C.attribute("v") == 3)
        #expect(check.conditionExpression == "#n0 = :v0")
        #expect(check.expressionAttributeValues == [":v0": .n(DynamoNumber(3))])
    }
}

/// README's client section shows these renderings; they stay true.
struct ReadmeExpressionTests {
    @Test func theReadmeUpdateRendersAsShown() throws {
        typealias C = ConditionExpression
        let rendered = try Expressions(
            condition: C.attribute("status") == "open" && .attributeNotExists("lockedBy"),
            update: .set("count", .add(1)).set("owner.name", "Ada").set("log", .appending([.s("claimed")]))
                .remove("draft").add("tags", .ss(["urgent"]))
        ).rendered()
        #expect(rendered.update == "SET #n0 = #n0 + :v0, #n1.#n2 = :v1, #n3 = list_append(#n3, :v2) REMOVE #n4 ADD #n5 :v3")
        #expect(rendered.condition == "#n6 = :v4 AND attribute_not_exists(#n7)")
    }
}
