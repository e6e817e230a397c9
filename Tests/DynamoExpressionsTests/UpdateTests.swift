import DynamoAPI
import DynamoExpressions
import Testing

@Suite("Update application")
struct UpdateTests {
    private func apply(
        _ expression: String, to json: String, values: String? = nil,
        names: [String: String]? = nil
    ) throws(DynamoError) -> Item {
        try T.compile(.updateItem, update: expression, names: names, values: values).update!.apply(to: T.item(json))
    }

    @Test("nested SET, arithmetic and list appends as DynamoDB applies them (dynalite's recorded case)")
    func nested() throws {
        let old = #"{"a":{"S":"k"},"b":{"M":{"a":{"N":"1"},"b":{"N":"2"},"c":{"N":"3"}}},"c":{"L":[{"N":"1"},{"N":"3"}]}}"#
        let expression = "set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a"
        let compiled = try T.compile(.updateItem, update: expression, values: #"{":a":{"N":"2"},":b":{"SS":["a"]}}"#)
        let new = try compiled.update!.apply(to: T.item(old))
        #expect(
            new
                == T.item(
                    #"{"a":{"S":"k"},"b":{"M":{"a":{"S":"k"},"b":{"N":"2"},"c":{"N":"4"}}},"c":{"L":[{"N":"1"},{"S":"k"},{"N":"3"},{"N":"-1"},{"N":"2"},{"SS":["a"]}]}}"#
                ))
        // UPDATED_NEW projects the touched paths on the new item.
        let touched = ProjectionPlan(paths: compiled.update!.touchedPaths).apply(to: new)
        #expect(touched == T.item(#"{"b":{"M":{"a":{"S":"k"},"c":{"N":"4"}}},"c":{"L":[{"S":"k"},{"N":"3"},{"N":"2"}]}}"#))
    }

    @Test("REMOVE shifts list elements by their old positions; removing what is missing does nothing")
    func remove() throws {
        let new = try apply("REMOVE l[0], l[2], m.x, absent", to: #"{"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]},"m":{"M":{}}}"#)
        #expect(new == T.item(#"{"l":{"L":[{"N":"1"},{"N":"3"}]},"m":{"M":{}}}"#))
    }

    @Test("ADD and DELETE on numbers and sets; an emptied set disappears")
    func addDelete() throws {
        let new = try apply(
            "ADD n :n, s :s, fresh :n", to: #"{"n":{"N":"0.1"},"s":{"SS":["a","b"]}}"#, values: #"{":n":{"N":"0.2"},":s":{"SS":["b","c"]}}"#)
        #expect(new == T.item(#"{"n":{"N":"0.3"},"s":{"SS":["a","b","c"]},"fresh":{"N":"0.2"}}"#))
        let emptied = try apply("DELETE s :d", to: #"{"s":{"SS":["a","b"]},"k":{"S":"x"}}"#, values: #"{":d":{"SS":["a","b","c"]}}"#)
        #expect(emptied == T.item(#"{"k":{"S":"x"}}"#))
    }

    @Test("if_not_exists and list_append")
    func functions() throws {
        let values = #"{":zero":{"N":"0"},":one":{"N":"1"},":l":{"L":[{"S":"z"}]}}"#
        let new = try apply("SET c = if_not_exists(c, :zero) + :one, l = list_append(:l, l)", to: #"{"l":{"L":[{"S":"a"}]}}"#, values: values)
        #expect(new == T.item(#"{"c":{"N":"1"},"l":{"L":[{"S":"z"},{"S":"a"}]}}"#))
    }

    @Test(
        "runtime errors",
        arguments: [
            ("SET x.y = :v", #"{":v":{"N":"1"}}"#, "The document path provided in the update expression is invalid for update"),
            ("SET s.y = :v", #"{":v":{"N":"1"}}"#, "The document path provided in the update expression is invalid for update"),
            ("REMOVE absent.a", nil, "The document path provided in the update expression is invalid for update"),
            ("SET x = absent", nil, "The provided expression refers to an attribute that does not exist in the item"),
            ("SET x = s + :v", #"{":v":{"N":"1"}}"#, "An operand in the update expression has an incorrect data type"),
            ("ADD s :v", #"{":v":{"N":"1"}}"#, "An operand in the update expression has an incorrect data type"),
            (
                "SET x = :big + :big", #"{":big":{"N":"9.9999999999999999999999999999999999999E+125"}}"#,
                "Number overflow. Attempting to store a number with magnitude larger than supported range"
            ),
        ] as [(String, String?, String)])
    func runtime(expression: String, values: String?, message: String) {
        let error = T.error { _ = try apply(expression, to: #"{"s":{"S":"text"}}"#, values: values) }
        #expect(error == message)
    }

    @Test("legacy AttributeUpdates: PUT, ADD to a list, DELETE, type mismatch")
    func legacy() throws {
        var input = ExpressionInput(.updateItem)
        input.attributeUpdates = [
            "a": AttributeValueUpdate(value: .s("x")),
            "l": AttributeValueUpdate(value: .l([.s("b")]), action: .add),
            "gone": AttributeValueUpdate(action: .delete),
        ]
        let plan = try ExpressionCompiler.compile(input).update!
        let new = try plan.apply(to: T.item(#"{"l":{"L":[{"S":"a"}]},"gone":{"N":"1"}}"#))
        #expect(new == T.item(#"{"a":{"S":"x"},"l":{"L":[{"S":"a"},{"S":"b"}]}}"#))
        input.attributeUpdates = ["n": AttributeValueUpdate(value: .ns([DynamoNumber(1)]), action: .delete)]
        let mismatch = try ExpressionCompiler.compile(input).update!
        #expect(T.error { _ = try mismatch.apply(to: ["n": T.n(1)]) } == "Type mismatch for attribute to update")
    }

    @Test("projection keeps nested sub-documents and list elements in order")
    func projection() throws {
        let item = T.item(#"{"a":{"M":{"b":{"N":"1"},"c":{"N":"2"}}},"l":{"L":[{"S":"x"},{"S":"y"},{"S":"z"}]},"k":{"S":"v"}}"#)
        let plan = try T.compile(.getItem, projection: "l[2], a.b, l[0], nothing, a.zz").projection!
        #expect(plan.apply(to: item) == T.item(#"{"a":{"M":{"b":{"N":"1"}}},"l":{"L":[{"S":"x"},{"S":"z"}]}}"#))
    }

    @Test("a hot loop parses once: the cache returns the same compiled result")
    func cache() throws {
        for _ in 0..<1000 {
            let compiled = try T.compile(
                .putItem, condition: "attribute_not_exists(pk) OR #v = :v",
                names: ["#v": "version"], values: #"{":v":{"N":"3"}}"#)
            #expect(compiled.condition?.evaluate(["version": T.n(3)]) == true)
        }
    }
}
