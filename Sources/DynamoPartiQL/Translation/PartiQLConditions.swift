import DynamoAPI
import DynamoExpressions

/// Translates a WHERE clause into DynamoExpressions' `Predicate`, so PartiQL conditions are
/// evaluated by the same code as ConditionExpression and FilterExpression.
struct PartiQLConditions {
    /// DynamoDB's limit on the values of one `IN` list (of a non-key attribute; see
    /// ``PartiQLSelectPlan/maximumDecomposedReads`` for the key).
    static let maximumInOperands = 100

    let binder: PartiQLBinder

    /// The predicate of a WHERE clause (or of one of its conjuncts).
    func predicate(_ expression: PartiQLExpression) throws(DynamoError) -> Predicate {
        switch expression {
        case .binary("AND", let left, let right), .binary("OR", let left, let right):
            guard Self.isBoolean(left), Self.isBoolean(right) else { throw PartiQLMessages.andOrOperand }
            let (a, b) = (try predicate(left), try predicate(right))
            if case .binary("AND", _, _) = expression { return .and(a, b) }
            return .or(a, b)
        case .not(let inner):
            guard Self.isBoolean(inner) else { throw PartiQLMessages.notOperand }
            // A comparison with a missing attribute is MISSING in PartiQL, and NOT MISSING is
            // not true: the negation holds only where the compared attributes exist.
            return Self.requiringPresence(.not(try predicate(inner)), of: Self.comparedPaths(inner))
        case .binary(let op, let left, let right):
            guard let comparator = Self.comparator(op) else { throw PartiQLMessages.conditionOperator(op) }
            let (a, b) = (try operand(left), try operand(right))
            if comparator != .equal, comparator != .notEqual { try Self.checkOrderable([a, b], op: op) }
            let comparison = Predicate.compare(comparator, a, b)
            // `<>` with a missing attribute matches nothing (where ConditionExpression says true).
            guard comparator == .notEqual else { return comparison }
            return Self.requiringPresence(comparison, of: Self.comparedPaths(expression))
        case .between(let value, let lower, let upper):
            let operands = [try operand(value), try operand(lower), try operand(upper)]
            try Self.checkOrderable(operands, op: "BETWEEN")
            return .between(operands[0], lower: operands[1], upper: operands[2])
        case .isIn(let value, let list):
            guard case .path = value else { throw PartiQLMessages.invalidIn }
            let members: [PartiQLExpression]
            switch list {
            case .list(let items) where !items.isEmpty: members = items
            case .parameter:
                guard case .l(let values)? = try binder.constant(list), !values.isEmpty else { throw PartiQLMessages.invalidIn }
                guard values.count <= Self.maximumInOperands else { throw PartiQLMessages.tooManyInOperands(values.count) }
                return .isIn(try operand(value), values.map { .value($0) })
            default: throw PartiQLMessages.invalidIn
            }
            guard members.count <= Self.maximumInOperands else { throw PartiQLMessages.tooManyInOperands(members.count) }
            var operands: [Operand] = []
            for member in members { operands.append(try operand(member)) }
            return .isIn(try operand(value), operands)
        case .isType(let value, let type, let negated):
            let check = try typeCheck(value, type: type)
            return negated ? .not(check) : check
        case .call(let name, let arguments, let site):
            return try function(name, arguments, site)
        case .literal(.bool(let flag)):
            return .compare(.equal, .value(.bool(true)), .value(.bool(flag)))
        case .exists:
            throw PartiQLMessages.existsOutsideTransaction
        default:
            throw PartiQLMessages.whereNotBoolean
        }
    }

    /// Ordering comparisons take strings, numbers and binary only: a constant of another type
    /// is refused (as the service does, before it looks at the table).
    static func checkOrderable(_ operands: [Operand], op: String) throws(DynamoError) {
        for case .value(let value) in operands where !["S", "N", "B"].contains(value.typeDescriptor) {
            throw PartiQLMessages.incorrectOperandTypeOperatorFunction(op: op, typeDescriptor: value.typeDescriptor)
        }
    }

    /// `predicate AND attribute_exists(p)` for each path.
    static func requiringPresence(_ predicate: Predicate, of paths: [DocumentPath]) -> Predicate {
        paths.reduce(predicate) { .and($0, .exists($1)) }
    }

    /// The paths compared directly (not inside functions or `IS`) by a condition.
    static func comparedPaths(_ expression: PartiQLExpression) -> [DocumentPath] {
        var paths: [DocumentPath] = []
        func visit(_ expression: PartiQLExpression) {
            switch expression {
            case .binary(let op, let left, let right):
                if comparator(op) != nil {
                    for side in [left, right] { if case .path(let path) = side, !paths.contains(path) { paths.append(path) } }
                } else if op == "AND" || op == "OR" {
                    visit(left)
                    visit(right)
                }
            case .between(.path(let path), _, _), .isIn(.path(let path), _):
                if !paths.contains(path) { paths.append(path) }
            case .not(let inner):
                visit(inner)
            default:
                break
            }
        }
        visit(expression)
        return paths
    }

    /// Whether an expression can stand as a condition.
    static func isBoolean(_ expression: PartiQLExpression) -> Bool {
        switch expression {
        case .binary(let op, _, _): ["AND", "OR", "=", "<>", "!=", "<", "<=", ">", ">=", "LIKE"].contains(op)
        case .not, .between, .isIn, .isType, .call, .exists, .literal(.bool): true
        default: false
        }
    }

    private static func comparator(_ op: String) -> Comparator? {
        switch op {
        case "=": .equal
        case "<>", "!=": .notEqual
        case "<": .less
        case "<=": .lessOrEqual
        case ">": .greater
        case ">=": .greaterOrEqual
        default: nil
        }
    }

    /// `x IS [NOT] MISSING | NULL | BOOLEAN | …`.
    private func typeCheck(_ value: PartiQLExpression, type: String) throws(DynamoError) -> Predicate {
        switch value {
        case .path, .literal, .parameter: break
        default: throw PartiQLMessages.isOperand
        }
        if type == "MISSING" {
            guard case .path(let path) = value else {
                // A literal is never missing.
                return .compare(.equal, .value(.bool(true)), .value(.bool(false)))
            }
            return .notExists(path)
        }
        let descriptors: [String]
        switch type {
        case "NULL": descriptors = ["NULL"]
        case "BOOLEAN", "BOOL": descriptors = ["BOOL"]
        case "BLOB": descriptors = ["B"]
        case "STRING": descriptors = ["S"]
        case "NUMERIC": descriptors = ["N"]
        case "STRUCT", "TUPLE": descriptors = ["M"]
        case "LIST": descriptors = ["L"]
        default: throw PartiQLMessages.isType(type)
        }
        let operand = try operand(value)
        return descriptors.dropFirst().reduce(Predicate.hasType(operand, descriptors[0])) { .or($0, .hasType(operand, $1)) }
    }

    /// A condition function: the functions a WHERE takes, with the expression language's
    /// messages for their operands (the service's, October 2026); any other is unrecognized.
    private func function(
        _ name: String, _ arguments: [PartiQLExpression], _ site: PartiQLCallSite
    ) throws(DynamoError) -> Predicate {
        func arity(_ count: Int) throws(DynamoError) {
            guard arguments.count == count else { throw PartiQLMessages.operandCount(name, arguments.count) }
        }
        switch name {
        case "begins_with":
            try arity(2)
            return .beginsWith(try operand(arguments[0]), try operand(arguments[1]))
        case "contains":
            try arity(2)
            return .contains(try operand(arguments[0]), try operand(arguments[1]))
        case "attribute_type":
            try arity(2)
            let type = try binder.constant(arguments[1])
            guard case .s(let type)? = type else {
                throw PartiQLMessages.incorrectOperandTypeOperatorFunction(
                    op: name, typeDescriptor: type?.typeDescriptor ?? "PATH")
            }
            return .hasType(try operand(arguments[0]), type)
        case "attribute_exists", "attribute_not_exists", "missing":
            try arity(1)
            guard case .path(let path) = arguments[0] else { throw PartiQLMessages.documentPathRequired(name) }
            return name == "attribute_exists" ? .exists(path) : .notExists(path)
        case "size":
            throw PartiQLMessages.whereNotBoolean
        default:
            throw PartiQLMessages.unrecognizedFunction(name, site.name)
        }
    }

    /// A value in a condition: a path, a constant or `size(path)`.
    func operand(_ expression: PartiQLExpression) throws(DynamoError) -> Operand {
        switch expression {
        case .path(let path):
            return .path(path)
        case .missing:
            throw PartiQLMessages.missingCompared
        case .call("size", let arguments, _):
            guard arguments.count == 1 else { throw PartiQLMessages.operandCount("size", arguments.count) }
            return .size(try operand(arguments[0]))
        case .call(let name, _, let site):
            throw PartiQLMessages.unrecognizedFunction(name, site.name)
        case .binary(let op, _, _):
            throw PartiQLMessages.conditionOperator(op)
        default:
            guard let value = try binder.constant(expression) else { throw PartiQLMessages.whereNotBoolean }
            return .value(value)
        }
    }
}
