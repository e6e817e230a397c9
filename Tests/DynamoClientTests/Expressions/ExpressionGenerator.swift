import DynamoAPI
import DynamoTestSupport
@testable import DynamoClient

/// Seeded random items and builder expressions over a small vocabulary of paths and values,
/// so generated conditions hit existing, missing, nested and oddly named attributes.
struct ExpressionGenerator {
    var random: SeededRandom

    static let paths: [AttributePath] = [
        "a", "b", "status", "tags", "nums", "list", "list[0]", "list[3]", "m.x", "m.y", "m.inner[1]", "m.missing.deep",
        "flag", "nul", "bin", "missing", .name("dot.ted"), .name("with space"),
    ]
    static let strings = ["", "a", "ab", "b", "ba", "c", "open", "x"]

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func number() -> AttributeValue { .n(DynamoNumber(random.int(-2..<8))) }
    mutating func string() -> AttributeValue { .s(random.pick(Self.strings)) }
    mutating func scalar() -> AttributeValue { random.chance(50) ? number() : string() }

    /// An item keyed `pk` / `sk` with a random subset of the vocabulary's attributes.
    mutating func item(pk: String, sk: Int) -> Item {
        var item: Item = ["pk": .s(pk), "sk": .n(DynamoNumber(sk))]
        if random.chance(70) { item["a"] = scalar() }
        if random.chance(70) { item["b"] = string() }
        if random.chance(50) { item["status"] = .s(random.pick(["open", "closed", "x"])) }
        if random.chance(50) { item["tags"] = .ss(Array(Set((0..<random.int(1..<4)).map { _ in random.pick(Self.strings.filter { !$0.isEmpty }) }))) }
        if random.chance(50) { item["nums"] = .ns(Array(Set((0..<random.int(1..<4)).map { _ in DynamoNumber(random.int(0..<5)) }))) }
        if random.chance(60) { item["list"] = .l((0..<random.int(0..<5)).map { _ in scalar() }) }
        if random.chance(60) {
            var members: Item = ["x": number()]
            if random.chance(60) { members["y"] = string() }
            if random.chance(60) { members["inner"] = .l((0..<random.int(0..<3)).map { _ in scalar() }) }
            item["m"] = .m(members)
        }
        if random.chance(40) { item["flag"] = .bool(random.chance(50)) }
        if random.chance(20) { item["nul"] = .null }
        if random.chance(40) { item["bin"] = .b((0..<random.int(0..<3)).map { _ in UInt8(random.int(0..<3)) }) }
        if random.chance(40) { item["dot.ted"] = scalar() }
        if random.chance(40) { item["with space"] = scalar() }
        return item
    }

    /// A random condition at most `depth` levels of AND / OR / NOT deep.
    mutating func condition(depth: Int) -> ConditionExpression {
        if depth > 0, random.chance(55) {
            switch random.int(0..<3) {
            case 0: return condition(depth: depth - 1) && condition(depth: depth - 1)
            case 1: return condition(depth: depth - 1) || condition(depth: depth - 1)
            default: return !condition(depth: depth - 1)
            }
        }
        return leaf()
    }

    mutating func leaf() -> ConditionExpression {
        let path = random.pick(Self.paths)
        let comparators: [ConditionExpression.Comparator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        switch random.int(0..<10) {
        case 0, 1: return .init(.compare(.path(path), random.pick(comparators), .value(scalar())))
        case 2: return .init(.compare(.size(path), random.pick(comparators), .value(.n(DynamoNumber(random.int(0..<4))))))
        case 3:
            let useNumbers = random.chance(50)
            var bounds = useNumbers ? [number(), number()] : [string(), string()]
            if ReferenceEvaluator.order(bounds[0], bounds[1])! > 0 { bounds.reverse() }
            return ConditionExpression.attribute(path).between(.value(bounds[0]), .value(bounds[1]))
        case 4: return ConditionExpression.attribute(path).in((0..<random.int(1..<5)).map { _ in .value(scalar()) })
        case 5: return random.chance(50) ? .attributeExists(path) : .attributeNotExists(path)
        case 6: return .attributeType(path, random.pick(ConditionExpression.AttributeType.allCases))
        case 7: return .beginsWith(path, .value(random.chance(85) ? string() : .b([UInt8(random.int(0..<3))])))
        case 8: return .contains(path, .value(scalar()))
        default:
            return .init(.compare(.path(path), random.pick([.equal, .notEqual]), .value(random.pick([.bool(true), .null, .ss(["a"]), .l([])]))))
        }
    }

    /// A random sort key condition over small numbers.
    mutating func sortCondition() -> KeyConditionExpression.SortCondition {
        let value = ExpressionValue(number())
        switch random.int(0..<6) {
        case 0: return .equal(value)
        case 1: return .lessThan(value)
        case 2: return .lessThanOrEqual(value)
        case 3: return .greaterThan(value)
        case 4: return .greaterThanOrEqual(value)
        default:
            let low = random.int(-2..<8)
            return .between(ExpressionValue(.n(DynamoNumber(low))), ExpressionValue(.n(DynamoNumber(low + random.int(0..<5)))))
        }
    }
}
