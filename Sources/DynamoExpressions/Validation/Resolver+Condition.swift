import DynamoAPI

extension Resolver {
    /// Resolves a condition, checking it as DynamoDB does after its static checks.
    mutating func condition(_ raw: RawCondition) throws(ExpressionProblem) -> Predicate {
        switch raw {
        case .paren(let inner):
            return try condition(inner)
        case .and(let left, let right):
            let a = try condition(left)
            return .and(a, try condition(right))
        case .or(let left, let right):
            let a = try condition(left)
            return .or(a, try condition(right))
        case .not(let inner):
            return .not(try condition(inner))
        case .compare(let comparator, let left, let right):
            let a = try operand(left), b = try operand(right)
            try distinct(comparator.rawValue, a, [b])
            if comparator != .equal && comparator != .notEqual {
                try Self.requireScalar(comparator.rawValue, [a, b])
            }
            return .compare(comparator, a, b)
        case .between(let value, let lower, let upper):
            let a = try operand(value), low = try operand(lower), high = try operand(upper)
            try distinct("BETWEEN", a, [low, high])
            try Self.requireScalar("BETWEEN", [a, low, high])
            if case .value(let lowValue) = low, case .value(let highValue) = high {
                guard lowValue.typeDescriptor == highValue.typeDescriptor else {
                    throw Message.betweenTypes(lowValue, highValue)
                }
                if let order = Ordering.compare(lowValue, highValue), order > 0 {
                    throw Message.betweenOrder(lowValue, highValue)
                }
            }
            return .between(a, lower: low, upper: high)
        case .isIn(let value, let list):
            let a = try operand(value)
            var candidates: [Operand] = []
            candidates.reserveCapacity(list.count)
            for item in list { candidates.append(try operand(item)) }
            if candidates.count > Self.maximumInOperands { throw Message.tooManyInOperands(candidates.count) }
            try distinct("IN", a, candidates)
            return .isIn(a, candidates)
        case .function(let name, let arguments):
            return try function(name, arguments)
        }
    }

    /// Order comparisons and BETWEEN take strings, numbers and binary only; a constant of another
    /// type is an error (an attribute of another type just makes the comparison false).
    private static func requireScalar(_ name: String, _ operands: [Operand]) throws(ExpressionProblem) {
        for operand in operands {
            if let type = staticType(operand), type != "S", type != "N", type != "B" {
                throw Message.operandType(name, type)
            }
        }
    }

    private mutating func function(_ name: String, _ arguments: [RawOperand]) throws(ExpressionProblem) -> Predicate {
        var resolved: [Operand] = []
        for argument in arguments { resolved.append(try operand(argument)) }
        let first = resolved[0]
        // attribute_type takes any operand (dynalite's recorded grammar).
        let needsPath = name == "attribute_exists" || name == "attribute_not_exists"
        if needsPath {
            guard case .path = first else { throw Message.requiresPath(name) }
        }
        try distinct(name, first, Array(resolved.dropFirst()))
        switch name {
        case "attribute_exists":
            guard case .path(let path) = first else { throw Message.requiresPath(name) }
            return .exists(path)
        case "attribute_not_exists":
            guard case .path(let path) = first else { throw Message.requiresPath(name) }
            return .notExists(path)
        case "attribute_type":
            guard case .value(let typeValue) = resolved[1] else {
                if case .size = resolved[1] { throw Message.operandType(name, "N") }
                throw Message.operandType(name, "{SS,M,DECIMAL,DOUBLESET,HDS,N,B,DICT,INTSET,BOOL,HD,BS,INT,DECIMALSET,NULL,FLOAT,FS,S,L,NS,DOUBLE}")
            }
            guard case .s(let typeName) = typeValue else { throw Message.operandType(name, typeValue.typeDescriptor) }
            guard Functions.typeNames.contains(typeName) else { throw Message.typeName(typeName) }
            return .hasType(first, typeName)
        case "begins_with":
            for operand in resolved {
                if let type = Self.staticType(operand), type != "S", type != "B" { throw Message.operandType(name, type) }
            }
            return .beginsWith(resolved[0], resolved[1])
        default: // contains
            return .contains(resolved[0], resolved[1])
        }
    }
}
