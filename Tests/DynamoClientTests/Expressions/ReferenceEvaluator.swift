import DynamoAPI
@testable import DynamoClient

/// DynamoDB's documented meaning of conditions, updates and key conditions, written
/// independently of the server, for the round-trip tests: what the builder says an expression
/// means, to compare with what LocalDynamo does with the rendered text.
enum ReferenceEvaluator {
    /// The value at a path, `nil` when missing.
    static func resolve(_ path: AttributePath, in item: Item) -> AttributeValue? {
        var current: AttributeValue? = nil
        for (position, element) in path.elements.enumerated() {
            switch (element, current) {
            case (.name(let name), _) where position == 0: current = item[name]
            case (.name(let name), .m(let members)?): current = members[name]
            case (.index(let index), .l(let elements)?): current = index < elements.count ? elements[index] : nil
            default: return nil
            }
        }
        return current
    }

    static func operand(_ operand: ExpressionOperand, _ item: Item) -> AttributeValue? {
        switch operand.kind {
        case .value(let value): return value
        case .path(let path): return resolve(path, in: item)
        case .size(let path):
            switch resolve(path, in: item) {
            case .s(let text)?: return .n(DynamoNumber(text.utf8.count))
            case .b(let bytes)?: return .n(DynamoNumber(bytes.count))
            case .ss(let set)?: return .n(DynamoNumber(set.count))
            case .ns(let set)?: return .n(DynamoNumber(set.count))
            case .bs(let set)?: return .n(DynamoNumber(set.count))
            case .l(let list)?: return .n(DynamoNumber(list.count))
            case .m(let map)?: return .n(DynamoNumber(map.count))
            default: return nil
            }
        }
    }

    /// -1, 0, 1 for two strings, numbers or binaries of one type; `nil` otherwise.
    static func order(_ a: AttributeValue, _ b: AttributeValue) -> Int? {
        switch (a, b) {
        case (.s(let x), .s(let y)): return x == y ? 0 : Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : 1
        case (.n(let x), .n(let y)): return x == y ? 0 : x < y ? -1 : 1
        case (.b(let x), .b(let y)): return x == y ? 0 : x.lexicographicallyPrecedes(y) ? -1 : 1
        default: return nil
        }
    }

    static func evaluate(_ condition: ConditionExpression, _ item: Item) -> Bool { evaluate(condition.node, item) }

    static func evaluate(_ node: ConditionExpression.Node, _ item: Item) -> Bool {
        switch node {
        case .compare(let left, let comparator, let right):
            // A missing operand (or size() of something without a size) is unequal to
            // anything and fails every other comparison.
            guard let a = operand(left, item), let b = operand(right, item) else { return comparator == .notEqual }
            switch comparator {
            case .equal: return a == b
            case .notEqual: return a != b
            case .less: return order(a, b).map { $0 < 0 } ?? false
            case .lessOrEqual: return order(a, b).map { $0 <= 0 } ?? false
            case .greater: return order(a, b).map { $0 > 0 } ?? false
            case .greaterOrEqual: return order(a, b).map { $0 >= 0 } ?? false
            }
        case .between(let value, let low, let high):
            guard let a = operand(value, item), let l = operand(low, item), let h = operand(high, item),
                let lower = order(a, l), let upper = order(a, h)
            else { return false }
            return lower >= 0 && upper <= 0
        case .isIn(let value, let candidates):
            guard let a = operand(value, item) else { return false }
            return candidates.contains { operand($0, item) == a }
        case .exists(let path): return resolve(path, in: item) != nil
        case .notExists(let path): return resolve(path, in: item) == nil
        case .type(let path, let type): return resolve(path, in: item)?.typeDescriptor == type.rawValue
        case .beginsWith(let path, let prefix):
            switch (resolve(path, in: item), operand(prefix, item)) {
            case (.s(let text)?, .s(let start)?): return Array(text.utf8).starts(with: Array(start.utf8))
            case (.b(let bytes)?, .b(let start)?): return bytes.starts(with: start)
            default: return false
            }
        case .contains(let path, let needle):
            switch (resolve(path, in: item), operand(needle, item)) {
            case (.s(let text)?, .s(let part)?): return text.contains(part)
            case (.ss(let set)?, .s(let element)?): return set.contains(element)
            case (.ns(let set)?, .n(let element)?): return set.contains(element)
            case (.bs(let set)?, .b(let element)?): return set.contains(element)
            case (.l(let list)?, let element?): return list.contains(element)
            default: return false
            }
        case .and(let left, let right): return evaluate(left, item) && evaluate(right, item)
        case .or(let left, let right): return evaluate(left, item) || evaluate(right, item)
        case .not(let inner): return !evaluate(inner, item)
        }
    }

    /// Whether a sort key value satisfies a key condition's sort condition.
    static func matches(_ value: AttributeValue, _ condition: KeyConditionExpression.SortCondition) -> Bool {
        switch condition.kind {
        case .compare(let comparator, let bound):
            return evaluate(ConditionExpression.Node.compare(.value(value), comparator, .value(bound)), [:])
        case .between(let low, let high):
            return evaluate(ConditionExpression.Node.between(.value(value), .value(low), .value(high)), [:])
        case .beginsWith(let prefix):
            return evaluate(ConditionExpression.Node.beginsWith(.name("k"), .value(prefix)), ["k": value])
        }
    }
}
