import DynamoAPI
import DynamoExpressions
import Testing

@Suite("Condition evaluation")
struct EvaluatorTests {
    /// One value of each of the ten types, and a second, larger value of the same type.
    static let samples: [(AttributeValue, AttributeValue)] = [
        (.s("abc"), .s("abd")), (T.n(1), T.n(2)), (.b([1, 2]), .b([1, 3])),
        (.ss(["a"]), .ss(["b"])), (.ns([DynamoNumber(1)]), .ns([DynamoNumber(2)])), (.bs([[1]]), .bs([[2]])),
        (.m(["k": .s("v")]), .m(["k": .s("w")])), (.l([.s("x")]), .l([.s("y")])),
        (.null, .null), (.bool(false), .bool(true)),
    ]

    private func holds(_ comparator: Comparator, _ a: AttributeValue?, _ b: AttributeValue) -> Bool {
        var item: Item = [:]
        item["a"] = a
        return Predicate.compare(comparator, .path(DocumentPath(attribute: "a")), .value(b)).evaluate(item)
    }

    @Test("every type against every type with every comparator")
    func exhaustiveComparisons() {
        let ordered: Set<String> = ["S", "N", "B"]
        for (i, (low, high)) in Self.samples.enumerated() {
            for (j, (other, _)) in Self.samples.enumerated() {
                let sameType = i == j
                #expect(holds(.equal, low, other) == sameType, "\(low) = \(other)")
                #expect(holds(.notEqual, low, other) == !sameType, "\(low) <> \(other)")
                for comparator in [Comparator.less, .lessOrEqual, .greater, .greaterOrEqual] {
                    let expected =
                        sameType && ordered.contains(low.typeDescriptor)
                        && (comparator == .lessOrEqual || comparator == .greaterOrEqual)
                    #expect(holds(comparator, low, other) == expected, "\(low) \(comparator.rawValue) \(other)")
                }
            }
            if ordered.contains(low.typeDescriptor) {
                #expect(holds(.less, low, high))
                #expect(!holds(.greater, low, high))
                #expect(holds(.greaterOrEqual, high, low))
            }
            // A missing attribute equals nothing and differs from everything.
            #expect(!holds(.equal, nil, low))
            #expect(holds(.notEqual, nil, low))
            #expect(!holds(.less, nil, low))
        }
    }

    @Test("numbers compare by exact value, strings and binary by unsigned bytes")
    func ordering() throws {
        #expect(Ordering.compare(.n(try DynamoNumber(parsing: "1.0")), T.n(1)) == 0)
        #expect(Ordering.compare(.n(try DynamoNumber(parsing: "-10")), .n(try DynamoNumber(parsing: "-9.5"))) == -1)
        #expect(Ordering.compare(.s("z"), .s("\u{BF}")) == -1) // "¿" is C2 BF in UTF-8
        #expect(Ordering.compare(.b([0x7F]), .b([0x80])) == -1)
        #expect(!Ordering.equal(.s("\u{E9}"), .s("e\u{301}"))) // bytes, not canonical equivalence
        #expect(Ordering.equal(.ss(["a", "b"]), .ss(["b", "a"])))
    }

    @Test("every function on every type")
    func functions() {
        let path = Operand.path(DocumentPath(attribute: "a"))
        for (value, _) in Self.samples {
            let item: Item = ["a": value]
            #expect(Predicate.exists(DocumentPath(attribute: "a")).evaluate(item))
            #expect(!Predicate.notExists(DocumentPath(attribute: "a")).evaluate(item))
            for type in ["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"] {
                #expect(Predicate.hasType(path, type).evaluate(item) == (type == value.typeDescriptor))
            }
            let size = Predicate.compare(.greaterOrEqual, .size(path), .value(T.n(0))).evaluate(item)
            #expect(size == !["N", "NULL", "BOOL"].contains(value.typeDescriptor), "size of \(value)")
            let begins = Predicate.beginsWith(path, .value(.s("a"))).evaluate(item)
            #expect(begins == (value == .s("abc")))
        }
        let item: Item = [
            "s": .s("hello"), "ss": .ss(["x"]), "ns": .ns([DynamoNumber(3)]), "bs": .bs([[7]]),
            "l": .l([.s("x"), T.n(1)]), "b": .b([1, 2, 3]),
        ]
        func contains(_ name: String, _ value: AttributeValue) -> Bool {
            Predicate.contains(.path(DocumentPath(attribute: name)), .value(value)).evaluate(item)
        }
        #expect(contains("s", .s("ell")))
        #expect(!contains("s", .s("xyz")))
        #expect(contains("ss", .s("x")))
        #expect(!contains("ss", .ss(["x"])))
        #expect(contains("ns", T.n(3)))
        #expect(contains("bs", .b([7])))
        #expect(contains("l", T.n(1)))
        #expect(contains("b", .b([2, 3])))
        #expect(!contains("missing", .s("x")))
    }

    @Test("BETWEEN, IN and nested paths")
    func operators() throws {
        let item = T.item(#"{"a":{"N":"5"},"m":{"M":{"l":{"L":[{"S":"x"},{"N":"2"}]}}}}"#)
        let compiled = try T.compile(
            .putItem, condition: "a BETWEEN :l AND :h AND m.l[1] IN (:x, :two) AND NOT m.l[5] = :x",
            values: #"{":l":{"N":"1"},":h":{"N":"5"},":x":{"S":"x"},":two":{"N":"2"}}"#)
        #expect(compiled.condition?.evaluate(item) == true)
        #expect(compiled.condition?.evaluate([:]) == false)
    }

    @Test("precedence: NOT binds tighter than AND, AND tighter than OR")
    func precedence() throws {
        let values = #"{":t":{"BOOL":true}}"#
        let item = T.item(#"{"a":{"BOOL":true}}"#)
        // NOT a = :t OR a = :t  ==  (NOT a = :t) OR (a = :t)  -> true
        #expect(try T.compile(.putItem, condition: "NOT a = :t OR a = :t", values: values).condition?.evaluate(item) == true)
        // a = :t OR b = :t AND c = :t  ==  a OR (b AND c) -> true
        #expect(try T.compile(.putItem, condition: "a = :t OR b = :t AND c = :t", values: values).condition?.evaluate(item) == true)
        // (a = :t OR b = :t) AND c = :t -> false
        #expect(try T.compile(.putItem, condition: "(a = :t OR b = :t) AND c = :t", values: values).condition?.evaluate(item) == false)
    }
}
