import DynamoAPI

extension ConditionExpression {
    /// The expression text, its names and values added to `renderer`.
    ///
    /// Parentheses are written only where DynamoDB's precedence (`NOT` over `AND` over `OR`)
    /// would otherwise read the tree differently.
    ///
    /// - Parameter kind: The request member, for messages (`ConditionExpression`, `FilterExpression`).
    func render(_ renderer: inout ExpressionRenderer, kind: String) throws(ExpressionBuildError) -> String {
        var operators = 0
        let text = try Self.render(node, &renderer, operators: &operators)
        guard operators <= ExpressionRenderer.Limits.operators else {
            throw ExpressionBuildError("the \(kind) has \(operators) operators and functions; DynamoDB allows \(ExpressionRenderer.Limits.operators)")
        }
        return try ExpressionRenderer.checkLength(text, kind: kind)
    }

    /// Binding strength: `OR` 1, `AND` 2, `NOT` 3, everything else 4.
    private static func precedence(_ node: Node) -> Int {
        switch node {
        case .or: 1
        case .and: 2
        case .not: 3
        default: 4
        }
    }

    private static func render(_ node: Node, _ renderer: inout ExpressionRenderer, operators: inout Int) throws(ExpressionBuildError) -> String {
        func child(_ inner: Node, below level: Int) throws(ExpressionBuildError) -> String {
            let text = try render(inner, &renderer, operators: &operators)
            return precedence(inner) < level ? "(\(text))" : text
        }
        operators += 1
        switch node {
        case .compare(let left, let comparator, let right):
            if comparator != .equal && comparator != .notEqual { try requireScalar(comparator.rawValue, [left, right]) }
            let a = try renderer.operand(left), b = try renderer.operand(right)
            try distinct(comparator.rawValue, a, [b])
            return "\(a) \(comparator.rawValue) \(b)"
        case .between(let operand, let low, let high):
            try requireScalar("BETWEEN", [operand, low, high])
            if case .value(let lowValue) = low.kind, case .value(let highValue) = high.kind {
                try checkBounds(lowValue, highValue)
            }
            let a = try renderer.operand(operand), l = try renderer.operand(low), h = try renderer.operand(high)
            try distinct("BETWEEN", a, [l, h])
            return "\(a) BETWEEN \(l) AND \(h)"
        case .isIn(let operand, let candidates):
            guard !candidates.isEmpty else { throw ExpressionBuildError("IN needs at least one value") }
            guard candidates.count <= ExpressionRenderer.Limits.inOperands else {
                throw ExpressionBuildError("IN takes at most \(ExpressionRenderer.Limits.inOperands) values; got \(candidates.count)")
            }
            let a = try renderer.operand(operand)
            var list: [String] = []
            for candidate in candidates { list.append(try renderer.operand(candidate)) }
            try distinct("IN", a, list)
            return "\(a) IN (\(list.joined(separator: ", ")))"
        case .exists(let path):
            return "attribute_exists(\(try renderer.path(path)))"
        case .notExists(let path):
            return "attribute_not_exists(\(try renderer.path(path)))"
        case .type(let path, let type):
            return "attribute_type(\(try renderer.path(path)), \(try renderer.value(.s(type.rawValue))))"
        case .beginsWith(let path, let prefix):
            if case .value(let value) = prefix.kind, value.typeDescriptor != "S", value.typeDescriptor != "B" {
                throw ExpressionBuildError("begins_with takes a string or binary prefix, not \(value.typeDescriptor)")
            }
            if case .size = prefix.kind { throw ExpressionBuildError("begins_with takes a string or binary prefix, not size() (a number)") }
            let a = try renderer.path(path), b = try renderer.operand(prefix)
            try distinct("begins_with", a, [b])
            return "begins_with(\(a), \(b))"
        case .contains(let path, let operand):
            let a = try renderer.path(path), b = try renderer.operand(operand)
            try distinct("contains", a, [b])
            return "contains(\(a), \(b))"
        case .and(let left, let right):
            return "\(try child(left, below: 2)) AND \(try child(right, below: 2))"
        case .or(let left, let right):
            return "\(try child(left, below: 1)) OR \(try child(right, below: 1))"
        case .not(let inner):
            return "NOT \(try child(inner, below: 3))"
        }
    }

    /// Order comparisons and BETWEEN compare strings, numbers and binaries only.
    private static func requireScalar(_ name: String, _ operands: [ExpressionOperand]) throws(ExpressionBuildError) {
        for operand in operands {
            if case .value(let value) = operand.kind, !["S", "N", "B"].contains(value.typeDescriptor) {
                throw ExpressionBuildError("\(name) compares strings, numbers and binaries, not \(value.typeDescriptor)")
            }
        }
    }

    /// DynamoDB rejects a function or operator whose first operand is repeated among the others.
    private static func distinct(_ name: String, _ first: String, _ rest: [String]) throws(ExpressionBuildError) {
        guard !rest.contains(first) else {
            throw ExpressionBuildError("the first operand of \(name) must differ from the others; \(first) is repeated")
        }
    }

    /// `BETWEEN` bounds: one type, lower not above upper.
    static func checkBounds(_ low: AttributeValue, _ high: AttributeValue) throws(ExpressionBuildError) {
        guard low.typeDescriptor == high.typeDescriptor else {
            throw ExpressionBuildError("BETWEEN bounds must have one type; got \(low.typeDescriptor) and \(high.typeDescriptor)")
        }
        let ordered: Bool
        switch (low, high) {
        case (.s(let a), .s(let b)): ordered = Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) || a == b
        case (.n(let a), .n(let b)): ordered = !(b < a)
        case (.b(let a), .b(let b)): ordered = !b.lexicographicallyPrecedes(a)
        default: ordered = true
        }
        guard ordered else { throw ExpressionBuildError("BETWEEN needs the lower bound \(low) at or below the upper bound \(high)") }
    }
}
