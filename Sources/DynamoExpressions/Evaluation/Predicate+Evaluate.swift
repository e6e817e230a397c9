import DynamoAPI

extension Predicate {
    /// Whether the condition holds for `item` (pass an empty item when there is none).
    ///
    /// ```swift
    /// let item: Item = ["pk": .s("a"), "v": .n(DynamoNumber(3))]
    /// Predicate.compare(.greater, .path(DocumentPath(attribute: "v")), .value(.n(DynamoNumber(2))))
    ///     .evaluate(item)   // true
    /// ```
    public func evaluate(_ item: Item) -> Bool {
        switch self {
        case .and(let left, let right):
            return left.evaluate(item) && right.evaluate(item)
        case .or(let left, let right):
            return left.evaluate(item) || right.evaluate(item)
        case .not(let inner):
            return !inner.evaluate(item)
        case .compare(let comparator, let left, let right):
            let a = left.conditionValue(in: item), b = right.conditionValue(in: item)
            switch comparator {
            case .equal:
                guard let a, let b else { return false }
                return Ordering.equal(a, b)
            case .notEqual:
                guard let a, let b else { return true }
                return !Ordering.equal(a, b)
            default:
                guard let a, let b, let order = Ordering.compare(a, b) else { return false }
                switch comparator {
                case .less: return order < 0
                case .lessOrEqual: return order <= 0
                case .greater: return order > 0
                default: return order >= 0
                }
            }
        case .between(let operand, let lower, let upper):
            guard let value = operand.conditionValue(in: item),
                let low = lower.conditionValue(in: item), let high = upper.conditionValue(in: item),
                let fromLow = Ordering.compare(low, value), let toHigh = Ordering.compare(value, high)
            else { return false }
            return fromLow <= 0 && toHigh <= 0
        case .isIn(let operand, let list):
            guard let value = operand.conditionValue(in: item) else { return false }
            return list.contains { candidate in
                candidate.conditionValue(in: item).map { Ordering.equal(value, $0) } ?? false
            }
        case .exists(let path):
            return path.value(in: item) != nil
        case .notExists(let path):
            return path.value(in: item) == nil
        case .hasType(let operand, let type):
            return operand.conditionValue(in: item)?.typeDescriptor == type
        case .beginsWith(let left, let right):
            switch (left.conditionValue(in: item), right.conditionValue(in: item)) {
            case (.s(let a)?, .s(let b)?): return a.utf8.starts(with: b.utf8)
            case (.b(let a)?, .b(let b)?): return a.starts(with: b)
            default: return false
            }
        case .contains(let left, let right):
            guard let a = left.conditionValue(in: item), let b = right.conditionValue(in: item) else { return false }
            return Self.contains(a, b)
        }
    }

    /// `contains(a, b)`: a substring of a string, bytes of a binary, a member of a set of the
    /// matching scalar type, or an element of a list.
    static func contains(_ container: AttributeValue, _ element: AttributeValue) -> Bool {
        switch (container, element) {
        case (.s(let text), .s(let part)): return Ordering.containsBytes(Array(text.utf8), Array(part.utf8))
        case (.b(let bytes), .b(let part)): return Ordering.containsBytes(bytes, part)
        case (.ss(let set), .s(let member)): return set.contains { $0.utf8.elementsEqual(member.utf8) }
        case (.ns(let set), .n(let member)): return set.contains(member)
        case (.bs(let set), .b(let member)): return set.contains(member)
        case (.l(let list), _): return list.contains { Ordering.equal($0, element) }
        default: return false
        }
    }
}

extension Operand {
    /// The operand's value for a condition, `nil` when it refers to nothing.
    func conditionValue(in item: Item) -> AttributeValue? {
        switch self {
        case .path(let path): return path.value(in: item)
        case .value(let value): return value
        case .size(let inner):
            guard let value = inner.conditionValue(in: item), let size = Self.size(of: value) else { return nil }
            return .n(DynamoNumber(size))
        default:
            return nil
        }
    }

    /// `size()`: UTF-8 bytes of a string, bytes of a binary, elements of a set, list or map.
    static func size(of value: AttributeValue) -> Int? {
        switch value {
        case .s(let text): text.utf8.count
        case .b(let bytes): bytes.count
        case .ss(let set): set.count
        case .ns(let set): set.count
        case .bs(let set): set.count
        case .l(let list): list.count
        case .m(let map): map.count
        default: nil
        }
    }
}
