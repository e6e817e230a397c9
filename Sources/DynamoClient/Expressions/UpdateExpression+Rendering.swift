import DynamoAPI

extension UpdateExpression {
    /// The expression text (`SET …` then `REMOVE …`, `ADD …`, `DELETE …`, each action in the
    /// order given), its names and values added to `renderer`.
    func render(_ renderer: inout ExpressionRenderer) throws(ExpressionBuildError) -> String {
        guard !actions.isEmpty else { throw ExpressionBuildError("an update expression needs at least one action") }
        try AttributePath.checkDisjoint(actions.map(\.path), in: "an update expression")
        var clauses: [String] = []
        for keyword in ["SET", "REMOVE", "ADD", "DELETE"] {
            var parts: [String] = []
            for action in actions {
                switch (keyword, action) {
                case ("SET", .set(let path, let value)):
                    let target = try renderer.path(path)
                    parts.append("\(target) = \(try Self.render(value.node, target: path, &renderer, top: true))")
                case ("REMOVE", .remove(let path)):
                    parts.append(try renderer.path(path))
                case ("ADD", .add(let path, let value)):
                    guard ["N", "SS", "NS", "BS"].contains(value.typeDescriptor) else {
                        throw ExpressionBuildError("ADD takes a number or a set, not \(value.typeDescriptor) (for \(path))")
                    }
                    parts.append("\(try renderer.path(path)) \(try renderer.value(value))")
                case ("DELETE", .delete(let path, let value)):
                    guard ["SS", "NS", "BS"].contains(value.typeDescriptor) else {
                        throw ExpressionBuildError("DELETE takes a set, not \(value.typeDescriptor) (for \(path))")
                    }
                    parts.append("\(try renderer.path(path)) \(try renderer.value(value))")
                default:
                    continue
                }
            }
            if !parts.isEmpty { clauses.append("\(keyword) \(parts.joined(separator: ", "))") }
        }
        return try ExpressionRenderer.checkLength(clauses.joined(separator: " "), kind: "UpdateExpression")
    }

    /// A `SET` operand. DynamoDB's grammar allows one `+` or `-` at the top, between plain
    /// operands (paths, values, `if_not_exists`, `list_append`), and paths only as the first
    /// argument of `if_not_exists`.
    private static func render(
        _ node: SetValue.Node, target: AttributePath, _ renderer: inout ExpressionRenderer, top: Bool
    ) throws(ExpressionBuildError) -> String {
        switch node {
        case .value(let value):
            return try renderer.value(value)
        case .path(let path):
            return try renderer.path(path)
        case .target:
            return try renderer.path(target)
        case .ifNotExists(let path, let fallback):
            switch path {
            case .path, .target: break
            default: throw ExpressionBuildError("if_not_exists takes a document path first (setting \(target))")
            }
            return
                "if_not_exists(\(try render(path, target: target, &renderer, top: false)), \(try render(fallback, target: target, &renderer, top: false)))"
        case .listAppend(let first, let second):
            for operand in [first, second] {
                if case .value(let value) = operand, value.typeDescriptor != "L" {
                    throw ExpressionBuildError("list_append takes lists, not \(value.typeDescriptor) (setting \(target))")
                }
            }
            return
                "list_append(\(try render(first, target: target, &renderer, top: false)), \(try render(second, target: target, &renderer, top: false)))"
        case .plus(let left, let right), .minus(let left, let right):
            let symbol = if case .plus = node { "+" } else { "-" }
            guard top else { throw ExpressionBuildError("a SET value allows one + or -, not nested arithmetic (setting \(target))") }
            for operand in [left, right] {
                if case .value(let value) = operand, value.typeDescriptor != "N" {
                    throw ExpressionBuildError("\(symbol) takes numbers, not \(value.typeDescriptor) (setting \(target))")
                }
            }
            let a = try render(left, target: target, &renderer, top: false)
            return "\(a) \(symbol) \(try render(right, target: target, &renderer, top: false))"
        }
    }
}

extension AttributePath {
    /// DynamoDB's rule for the paths of one update or projection: no path may equal another or
    /// lead into it ("overlap"), and no attribute may be used both as a map and as a list
    /// ("conflict").
    static func checkDisjoint(_ paths: [AttributePath], in context: String) throws(ExpressionBuildError) {
        for later in paths.indices.dropFirst() {
            for earlier in paths.indices where earlier < later {
                let a = paths[earlier].elements, b = paths[later].elements
                guard let split = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) else {
                    throw ExpressionBuildError("\(context) names overlapping paths \(paths[earlier]) and \(paths[later])")
                }
                switch (a[split], b[split]) {
                case (.name, .index), (.index, .name):
                    throw ExpressionBuildError("\(context) uses \(paths[earlier]) and \(paths[later]), one attribute as both a map and a list")
                default: continue
                }
            }
        }
    }
}
