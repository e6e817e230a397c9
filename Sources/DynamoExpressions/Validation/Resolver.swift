import DynamoAPI

/// The checks that need the request's `ExpressionAttributeNames` and `ExpressionAttributeValues`:
/// placeholders defined, operand types of constants, distinct operands, BETWEEN bounds, IN
/// operand count, path depth; and the translation of the written tree into the compiled one.
/// It records which placeholders the request's expressions used.
struct Resolver {
    var names: PlaceholderMap<String>
    var values: PlaceholderMap<AttributeValue>

    /// DynamoDB's limits.
    static let maximumPathDepth = 32
    static let maximumInOperands = 100

    init(names: [String: String]?, values: [String: AttributeValue]?) {
        self.names = PlaceholderMap(names)
        self.values = PlaceholderMap(values)
    }

    // MARK: Paths and operands

    mutating func path(_ raw: RawPath) throws(ExpressionProblem) -> DocumentPath {
        var elements: [PathElement] = []
        elements.reserveCapacity(raw.steps.count)
        for step in raw.steps {
            switch step {
            case .name(let name):
                elements.append(.attribute(name))
            case .placeholder(let placeholder):
                guard let name = names.use(placeholder) else { throw Message.undefinedName(placeholder) }
                elements.append(.attribute(name))
            case .index(let digits):
                elements.append(.index(Int(digits) ?? 0))
            }
        }
        if elements.count > Self.maximumPathDepth { throw Message.tooDeep(elements.count) }
        return DocumentPath(elements)
    }

    /// The names a path uses must be defined (no other check, nothing marked used).
    func checkNames(_ raw: RawPath) throws(ExpressionProblem) {
        for case .placeholder(let placeholder) in raw.steps where !names.contains(placeholder) {
            throw Message.undefinedName(placeholder)
        }
    }

    func checkNames(_ raw: RawOperand) throws(ExpressionProblem) {
        switch raw {
        case .path(let path): try checkNames(path)
        case .value: break
        case .paren(let inner): try checkNames(inner)
        case .call(_, let arguments): for argument in arguments { try checkNames(argument) }
        case .arithmetic(_, let left, let right):
            try checkNames(left)
            try checkNames(right)
        }
    }

    mutating func value(_ placeholder: String) throws(ExpressionProblem) -> AttributeValue {
        guard let value = values.use(placeholder) else { throw Message.undefinedValue(placeholder) }
        return value
    }

    /// The type a constant operand is known to have before any item is read: a value's type,
    /// `N` for `size(…)`.
    static func staticType(_ operand: Operand) -> String? {
        switch operand {
        case .value(let value): value.typeDescriptor
        case .size: "N"
        default: nil
        }
    }

    mutating func operand(_ raw: RawOperand) throws(ExpressionProblem) -> Operand {
        switch raw {
        case .path(let path):
            return .path(try self.path(path))
        case .value(let placeholder):
            return .value(try value(placeholder))
        case .paren(let inner):
            return try operand(inner)
        case .arithmetic(let op, let left, let right):
            let a = try operand(left), b = try operand(right)
            for side in [a, b] {
                if let type = Self.staticType(side), type != "N" { throw Message.operandType(op.rawValue, type) }
            }
            return op == .plus ? .add(a, b) : .subtract(a, b)
        case .call(let name, let arguments):
            return try call(name, arguments)
        }
    }

    private mutating func call(_ name: String, _ arguments: [RawOperand]) throws(ExpressionProblem) -> Operand {
        if let arity = Functions.updates[name], arguments.count != arity {
            throw Message.operandCount(name, arguments.count)
        }
        var resolved: [Operand] = []
        for argument in arguments { resolved.append(try operand(argument)) }
        switch name {
        case "size":
            if let type = Self.staticType(resolved[0]), !["S", "B", "SS", "NS", "BS", "L", "M"].contains(type) {
                throw Message.operandType("size", type)
            }
            return .size(resolved[0])
        case "if_not_exists":
            guard case .path(let path) = resolved[0] else { throw Message.requiresPath(name) }
            try distinct(name, resolved[0], Array(resolved.dropFirst()))
            return .ifNotExists(path, resolved[1])
        case "list_append":
            for argument in resolved {
                if let type = Self.staticType(argument), type != "L" { throw Message.operandType(name, type) }
            }
            return .listAppend(resolved[0], resolved[1])
        default:
            // Condition functions never reach here as operands: the static check refused them.
            throw Message.functionMisused(name)
        }
    }

    /// DynamoDB refuses a path compared with itself.
    func distinct(_ name: String, _ first: Operand, _ rest: [Operand]) throws(ExpressionProblem) {
        guard case .path(let path) = first else { return }
        for other in rest {
            if case .path(let otherPath) = other, otherPath == path { throw Message.notDistinct(name, path) }
        }
    }
}
