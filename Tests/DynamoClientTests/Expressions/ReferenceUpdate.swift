import DynamoAPI
import DynamoTestSupport
@testable import DynamoClient

/// Random updates on top-level attributes and what DynamoDB's documentation says each does to
/// an item (`nil`: DynamoDB rejects it for this item with a ValidationException).
enum ReferenceUpdate {
    static let targets = ["a", "b", "status", "tags", "nums", "list", "count"]

    static func random(_ generator: inout ExpressionGenerator) -> UpdateExpression {
        var update = UpdateExpression()
        for target in targets.shuffled(using: &generator.random).prefix(generator.random.int(1..<4)) {
            let path = AttributePath.name(target)
            switch generator.random.int(0..<9) {
            case 0: update = update.set(path, .value(generator.scalar()))
            case 1: update = update.set(path, .add(SetValue.value(generator.number())))
            case 2: update = update.set(path, .add(SetValue.value(generator.number()), ifMissing: 10))
            case 3: update = update.set(path, .ifNotExists(.value(generator.string())))
            case 4: update = update.set(path, .appending([generator.scalar()]))
            case 5: update = update.remove(path)
            case 6: update = update.add(path, generator.random.chance(50) ? generator.number() : .ss(["a", "z"]))
            case 7: update = update.delete(path, .ss(["a", "b"]))
            default: update = update.set(path, .subtract(SetValue.value(generator.number())))
            }
        }
        return update
    }

    /// The item after the update, or `nil` when DynamoDB refuses it.
    static func apply(_ update: UpdateExpression, to item: Item) -> Item? {
        var result = item
        for action in update.actions {
            guard case .name(let name) = action.path.elements[0], action.path.elements.count == 1 else { return nil }
            switch action {
            case .set(_, let value):
                guard let new = evaluate(value.node, target: name, item) else { return nil }
                result[name] = new
            case .remove:
                result[name] = nil
            case .add(_, let value):
                switch (item[name], value) {
                case (nil, _): result[name] = value
                case (.n(let old)?, .n(let amount)): guard let sum = try? old + amount else { return nil }; result[name] = .n(sum)
                case (.ss(let old)?, .ss(let more)): result[name] = .ss(old + more.filter { !old.contains($0) })
                default: return nil
                }
            case .delete(_, let value):
                switch (item[name], value) {
                case (nil, _): break
                case (.ss(let old)?, .ss(let less)):
                    let left = old.filter { !less.contains($0) }
                    result[name] = left.isEmpty ? nil : .ss(left)
                default: return nil
                }
            }
        }
        return result
    }

    private static func evaluate(_ node: SetValue.Node, target: String, _ item: Item) -> AttributeValue? {
        switch node {
        case .value(let value): return value
        case .path(let path): return ReferenceEvaluator.resolve(path, in: item)
        case .target: return item[target]
        case .ifNotExists(let path, let fallback):
            return evaluate(path, target: target, item) ?? evaluate(fallback, target: target, item)
        case .listAppend(let first, let second):
            guard case .l(let a)? = evaluate(first, target: target, item), case .l(let b)? = evaluate(second, target: target, item) else {
                return nil
            }
            return .l(a + b)
        case .plus(let left, let right), .minus(let left, let right):
            guard case .n(let a)? = evaluate(left, target: target, item), case .n(let b)? = evaluate(right, target: target, item) else { return nil }
            if case .plus = node { return (try? a + b).map { .n($0) } }
            return (try? a - b).map { .n($0) }
        }
    }
}
