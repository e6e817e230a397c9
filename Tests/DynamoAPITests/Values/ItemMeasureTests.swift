import Testing
@testable import DynamoAPI

/// `ItemSize.measure`: one walk that finds what `ItemSize.of` and `checkNamesAndNesting` find.
@Suite struct ItemMeasureTests {
    /// What the separate walks say of `item`: its size and the error of the name and depth checks.
    static func separately(_ item: Item) -> (size: Int, error: DynamoError?) {
        do {
            try ItemSize.checkNamesAndNesting(item)
            return (ItemSize.of(item), nil)
        } catch {
            return (ItemSize.of(item), error)
        }
    }

    /// What the one walk says of `item`.
    static func together(_ item: Item) -> (size: Int, error: DynamoError?) {
        let measured = ItemSize.measure(item)
        do {
            try measured.checkNamesAndNesting()
            return (measured.size, nil)
        } catch {
            return (measured.size, error)
        }
    }

    /// An attribute name: empty one time in ten.
    static func name(_ random: inout SplitMix64) -> String {
        if random.next() % 10 == 0 { return "" }
        let names = ["a", "pk", "é", "名前", "data", "n"]
        return names[Int(random.next() % UInt64(names.count))] + String(random.next() % 4)
    }

    /// A value up to `depth` maps and lists deep; an empty name now and then.
    static func value(_ random: inout SplitMix64, depth: Int) -> AttributeValue {
        let kinds = depth > 0 ? 11 : 9
        switch random.next() % UInt64(kinds) {
        case 0: return .s(String(repeating: "x", count: Int(random.next() % 40)))
        case 1: return .n(try! DynamoNumber(parsing: String(Int(random.next() % 100_000) - 50_000)))
        case 2: return .b(Array(repeating: 7, count: Int(random.next() % 20)))
        case 3: return .ss(["a", "bc", "déf"])
        case 4: return .ns([try! DynamoNumber(parsing: "1.5"), try! DynamoNumber(parsing: "-12e3")])
        case 5: return .bs([[1, 2], [3]])
        case 6: return .null
        case 7: return .bool(random.next() % 2 == 0)
        case 8: return .s("")
        case 9:
            var map = Item()
            for _ in 0..<(random.next() % 4) {
                // An empty key in one map in twenty.
                let key = random.next() % 20 == 0 ? "" : name(&random) + "k"
                map[key] = value(&random, depth: depth - 1)
            }
            return .m(map)
        default:
            return .l((0..<(random.next() % 4)).map { _ in value(&random, depth: depth - 1) })
        }
    }

    /// A chain of `depth` maps and lists around a string.
    static func deep(_ depth: Int, list: Bool) -> AttributeValue {
        (0..<depth).reduce(AttributeValue.s("leaf")) { value, level in
            list && level % 2 == 0 ? .l([value]) : .m(["n": value])
        }
    }

    @Test("random items: the same size and the same error as the separate walks", arguments: [UInt64(1), 46, 2026])
    func randomItems(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var failing = 0
        for _ in 0..<500 {
            var item = Item()
            for _ in 0..<(random.next() % 6) { item[Self.name(&random)] = Self.value(&random, depth: 4) }
            // Now and then an attribute near the nesting limit, on either side of it.
            if random.next() % 4 == 0 {
                let depth = 29 + Int(random.next() % 5)
                item["deep"] = Self.deep(depth, list: random.next() % 2 == 0)
            }
            let separately = Self.separately(item)
            let together = Self.together(item)
            if separately.error != nil { failing += 1 }
            #expect(together.size == separately.size, "seed \(seed): \(item)")
            #expect(together.error == separately.error, "seed \(seed): \(item)")
        }
        // Both outcomes drawn often: the errors are compared, not only the sizes.
        #expect((50...450).contains(failing), "seed \(seed): \(failing) of 500 items refused")
    }

    @Test("the errors in DynamoDB's order: the item's own names, the depth, the maps' keys")
    func order() {
        let tooDeep = Self.deep(32, list: false)
        #expect(Self.together(["": .s("x"), "d": tooDeep]).error == DynamoError.validation("Empty attribute name"))
        #expect(Self.together(["m": .m(["": .null]), "d": tooDeep]).error == AttributeValueMessages.nestingLevelsHaveExceededSupported)
        #expect(Self.together(["l": .l([.m(["": .null])])]).error == DynamoError.validation("Empty attribute name"))
        #expect(Self.together(["d": Self.deep(31, list: true)]).error == nil)
        #expect(Self.together(["d": Self.deep(32, list: true)]).error == AttributeValueMessages.nestingLevelsHaveExceededSupported)
    }
}
