import DynamoAPI
import DynamoExpressions

/// Renders DynamoExpressions' conditions and update actions as expression text with
/// `#n` / `:v` placeholders, so a PartiQL write runs as an ordinary PutItem, UpdateItem,
/// DeleteItem or transaction action through the engine's own expression compiler.
struct ExpressionText {
    private(set) var names: [String: String] = [:]
    private var placeholders: [String: String] = [:]
    private(set) var values: [String: AttributeValue] = [:]

    /// The names map, or `nil` when empty (DynamoDB refuses an empty map).
    var namesOrNil: [String: String]? { names.isEmpty ? nil : names }
    /// The values map, or `nil` when empty.
    var valuesOrNil: [String: AttributeValue]? { values.isEmpty ? nil : values }

    mutating func name(_ name: String) -> String {
        if let known = placeholders[name] { return known }
        let placeholder = "#n\(placeholders.count)"
        placeholders[name] = placeholder
        names[placeholder] = name
        return placeholder
    }

    mutating func path(_ path: DocumentPath) -> String {
        var text = ""
        for element in path.elements {
            switch element {
            case .attribute(let attribute): text += (text.isEmpty ? "" : ".") + name(attribute)
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    mutating func value(_ value: AttributeValue) -> String {
        let placeholder = ":v\(values.count)"
        values[placeholder] = value
        return placeholder
    }

    mutating func operand(_ operand: Operand) -> String {
        switch operand {
        case .path(let documentPath): path(documentPath)
        case .value(let constant): value(constant)
        case .size(let inner): "size(\(self.operand(inner)))"
        case .ifNotExists(let path, let inner): "if_not_exists(\(self.path(path)), \(self.operand(inner)))"
        case .listAppend(let a, let b): "list_append(\(self.operand(a)), \(self.operand(b)))"
        case .add(let a, let b): "\(self.operand(a)) + \(self.operand(b))"
        case .subtract(let a, let b): "\(self.operand(a)) - \(self.operand(b))"
        }
    }

    mutating func predicate(_ predicate: Predicate) -> String {
        switch predicate {
        case .compare(let comparator, let a, let b):
            return "\(operand(a)) \(comparator.rawValue) \(operand(b))"
        case .between(let value, let lower, let upper):
            return "\(operand(value)) BETWEEN \(operand(lower)) AND \(operand(upper))"
        case .isIn(let value, let list):
            let head = operand(value)
            var members: [String] = []
            for member in list { members.append(operand(member)) }
            return "\(head) IN (\(members.joined(separator: ", ")))"
        case .exists(let path): return "attribute_exists(\(self.path(path)))"
        case .notExists(let path): return "attribute_not_exists(\(self.path(path)))"
        case .hasType(let value, let type): return "attribute_type(\(operand(value)), \(self.value(.s(type))))"
        case .beginsWith(let a, let b): return "begins_with(\(operand(a)), \(operand(b)))"
        case .contains(let a, let b): return "contains(\(operand(a)), \(operand(b)))"
        case .and(let a, let b): return "(\(self.predicate(a))) AND (\(self.predicate(b)))"
        case .or(let a, let b): return "(\(self.predicate(a))) OR (\(self.predicate(b)))"
        case .not(let a): return "NOT (\(self.predicate(a)))"
        }
    }

    /// An UpdateExpression: SET, REMOVE, ADD and DELETE sections in the order first used.
    mutating func update(_ actions: [UpdateAction]) -> String {
        var sections: [(String, [String])] = []
        func append(_ keyword: String, _ text: String) {
            if let position = sections.firstIndex(where: { $0.0 == keyword }) {
                sections[position].1.append(text)
            } else {
                sections.append((keyword, [text]))
            }
        }
        for action in actions {
            switch action {
            case .set(let path, let value): append("SET", "\(self.path(path)) = \(operand(value))")
            case .remove(let path): append("REMOVE", self.path(path))
            case .add(let path, let value): append("ADD", "\(self.path(path)) \(self.value(value))")
            case .delete(let path, let value): append("DELETE", "\(self.path(path)) \(self.value(value))")
            }
        }
        return sections.map { "\($0.0) \($0.1.joined(separator: ", "))" }.joined(separator: " ")
    }
}
