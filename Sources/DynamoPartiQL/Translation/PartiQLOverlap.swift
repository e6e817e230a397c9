import DynamoAPI
import DynamoExpressions

/// DynamoDB's refusal of a SELECT whose OR branches read overlapping parts of one partition.
///
/// The service plans each branch of a top-level OR that fixes the partition key as its own
/// read of that partition, narrowed by the branch's condition on the sort key; two such reads
/// of one partition that could return the same item are refused ("Overlapping conditions with
/// range keys are not supported in where clause"). A branch without a condition on the sort
/// key reads the whole partition. A negated condition on the sort key (`NOT sk = …`,
/// `sk <> …`, `NOT begins_with(sk, …)`) cannot narrow a read, and a WHERE with one is not
/// refused (eu-west-2, October 2026, us-east-1 the same).
enum PartiQLOverlap {
    /// One bound of a range of sort key values.
    private struct Bound {
        var value: AttributeValue
        var inclusive: Bool
    }

    /// The sort key values a branch reads: between `lower` and `upper` (`nil`: unbounded).
    private struct Range {
        var lower: Bound?
        var upper: Bound?

        static let whole = Range(lower: nil, upper: nil)

        func overlaps(_ other: Range) -> Bool {
            let lower = Self.tighter(self.lower, other.lower, keepsGreater: true)
            let upper = Self.tighter(self.upper, other.upper, keepsGreater: false)
            guard let lower, let upper, let order = Ordering.compare(lower.value, upper.value) else { return true }
            return order < 0 || (order == 0 && lower.inclusive && upper.inclusive)
        }

        private static func tighter(_ a: Bound?, _ b: Bound?, keepsGreater: Bool) -> Bound? {
            guard let a else { return b }
            guard let b else { return a }
            guard let order = Ordering.compare(a.value, b.value) else { return a }
            if order == 0 { return Bound(value: a.value, inclusive: a.inclusive && b.inclusive) }
            return (order > 0) == keepsGreater ? a : b
        }
    }

    /// Throws when two branches of a top-level OR read overlapping ranges of one partition.
    ///
    /// - Throws: "Overlapping conditions with range keys are not supported in where clause".
    static func check(
        _ whereClause: PartiQLExpression?, schema: PartiQLSchema, binder: PartiQLBinder
    ) throws(DynamoError) {
        guard let sortKey = schema.sortKey, let whereClause else { return }
        let branches = disjuncts(whereClause)
        guard branches.count > 1 else { return }
        var reads: [(partition: AttributeValue, ranges: [Range])] = []
        for branch in branches {
            let conjuncts = KeyedWhere.conjuncts(branch)
            var partition: AttributeValue?
            for conjunct in conjuncts {
                if let (name, value) = try KeyedWhere.keyEquality(conjunct, schema: schema, binder: binder),
                    name == schema.partitionKey.name
                {
                    partition = value
                    break
                }
            }
            // A branch that does not fix the partition makes the whole WHERE a scan.
            guard let partition else { return }
            if conjuncts.contains(where: { negatesSortKey($0, sortKey: sortKey.name) }) { return }
            reads.append((partition, try ranges(conjuncts, sortKey: sortKey, binder: binder)))
        }
        for (index, read) in reads.enumerated() {
            for other in reads[(index + 1)...] where other.partition == read.partition {
                for range in read.ranges where other.ranges.contains(where: range.overlaps) {
                    throw PartiQLMessages.overlappingRangeConditions
                }
            }
        }
    }

    private static func disjuncts(_ expression: PartiQLExpression) -> [PartiQLExpression] {
        if case .binary("OR", let left, let right) = expression { return disjuncts(left) + disjuncts(right) }
        return [expression]
    }

    /// Whether the conjunct is a negated condition on the sort key.
    private static func negatesSortKey(_ conjunct: PartiQLExpression, sortKey: String) -> Bool {
        switch conjunct {
        case .not(let inner): return mentions(inner, sortKey)
        case .binary(let op, let left, let right) where op == "<>" || op == "!=":
            return left.isAttribute(sortKey) || right.isAttribute(sortKey)
        default: return false
        }
    }

    private static func mentions(_ expression: PartiQLExpression, _ name: String) -> Bool {
        switch expression {
        case .path: return expression.isAttribute(name)
        case .not(let inner), .negate(let inner): return mentions(inner, name)
        case .binary(_, let left, let right), .isIn(let left, let right): return mentions(left, name) || mentions(right, name)
        case .between(let a, let b, let c): return mentions(a, name) || mentions(b, name) || mentions(c, name)
        case .call(_, let arguments, _): return arguments.contains { mentions($0, name) }
        case .isType(let inner, _, _): return mentions(inner, name)
        default: return false
        }
    }

    /// The sort key ranges a branch reads: its first condition that narrows the sort key (an
    /// `IN` reads each of its values), else the whole partition.
    private static func ranges(
        _ conjuncts: [PartiQLExpression], sortKey: PartiQLKey, binder: PartiQLBinder
    ) throws(DynamoError) -> [Range] {
        for conjunct in conjuncts {
            if case .isIn(let path, let list) = conjunct, path.isAttribute(sortKey.name),
                case .l(let values)? = try binder.constant(list)
            {
                return values.map { Range(lower: Bound(value: $0, inclusive: true), upper: Bound(value: $0, inclusive: true)) }
            }
            if let comparison = try PartiQLTranslator.sortComparison(conjunct, sortKey: sortKey, binder: binder) {
                return [range(comparison)]
            }
        }
        return [.whole]
    }

    private static func range(_ comparison: KeyComparison) -> Range {
        switch comparison {
        case .equal(let v): Range(lower: Bound(value: v, inclusive: true), upper: Bound(value: v, inclusive: true))
        case .less(let v): Range(lower: nil, upper: Bound(value: v, inclusive: false))
        case .lessOrEqual(let v): Range(lower: nil, upper: Bound(value: v, inclusive: true))
        case .greater(let v): Range(lower: Bound(value: v, inclusive: false), upper: nil)
        case .greaterOrEqual(let v): Range(lower: Bound(value: v, inclusive: true), upper: nil)
        case .between(let low, let high):
            Range(lower: Bound(value: low, inclusive: true), upper: Bound(value: high, inclusive: true))
        case .beginsWith(let prefix): Range(lower: Bound(value: prefix, inclusive: true), upper: prefixEnd(prefix))
        }
    }

    /// An upper bound of the values that begin with `prefix` (none past the largest value).
    private static func prefixEnd(_ prefix: AttributeValue) -> Bound? {
        switch prefix {
        case .s(let text): Bound(value: .s(text + "\u{10FFFF}"), inclusive: true)
        case .b(let bytes): Bound(value: .b(bytes + [UInt8](repeating: 0xFF, count: 16)), inclusive: true)
        default: nil
        }
    }
}
