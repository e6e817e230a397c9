/// The checks that depend only on an expression's text, made in the order the expression is
/// written: reserved words, list index range, function names, where each function may stand and
/// (in conditions) its operand count; in updates also the once-only sections. Their outcome is
/// cached with the parse.
enum StaticCheck {
    /// DynamoDB's limit on operators and functions in one expression.
    static let maximumOperators = 300

    static func check(_ expression: RawExpression) throws(ExpressionProblem) {
        var operators = 0
        switch expression {
        case .condition(let condition):
            try visit(condition, operators: &operators)
        case .projection(let paths):
            for path in paths { try visit(path) }
        case .update(let clauses):
            // A section at a time, in the order the sections first appear.
            var order: [UpdateKeyword] = []
            for clause in clauses where !order.contains(clause.keyword) { order.append(clause.keyword) }
            for keyword in order {
                let sections = clauses.filter { $0.keyword == keyword }
                for section in sections {
                    for action in section.actions {
                        try visit(action.path)
                        if let value = action.value { try visit(value, inCondition: false, update: true, operators: &operators) }
                    }
                }
                if sections.count > 1 { throw Message.section(keyword.rawValue) }
            }
        }
        if operators > maximumOperators { throw Message.tooManyOperators(operators) }
    }

    private static func visit(_ condition: RawCondition, operators: inout Int) throws(ExpressionProblem) {
        switch condition {
        case .compare(_, let left, let right):
            operators += 1
            try visit(left, inCondition: false, update: false, operators: &operators)
            try visit(right, inCondition: false, update: false, operators: &operators)
        case .between(let value, let lower, let upper):
            operators += 1
            for operand in [value, lower, upper] {
                try visit(operand, inCondition: false, update: false, operators: &operators)
            }
        case .isIn(let value, let list):
            operators += 1
            try visit(value, inCondition: false, update: false, operators: &operators)
            for operand in list { try visit(operand, inCondition: false, update: false, operators: &operators) }
        case .function(let name, let arguments):
            try visit(.call(name, arguments), inCondition: true, update: false, operators: &operators)
        case .and(let left, let right), .or(let left, let right):
            operators += 1
            try visit(left, operators: &operators)
            try visit(right, operators: &operators)
        case .not(let inner):
            operators += 1
            try visit(inner, operators: &operators)
        case .paren(let inner):
            try visit(inner, operators: &operators)
        }
    }

    private static func visit(
        _ operand: RawOperand, inCondition: Bool, update: Bool,
        operators: inout Int
    ) throws(ExpressionProblem) {
        switch operand {
        case .path(let path):
            try visit(path)
        case .value:
            return
        case .paren(let inner):
            try visit(inner, inCondition: inCondition, update: update, operators: &operators)
        case .arithmetic(_, let left, let right):
            operators += 1
            try visit(left, inCondition: false, update: update, operators: &operators)
            try visit(right, inCondition: false, update: update, operators: &operators)
        case .call(let name, let arguments):
            operators += 1
            guard let arity = Functions.arity(name) else { throw Message.unknownFunction(name) }
            if update {
                if Functions.updates[name] == nil { throw Message.functionInUpdate(name) }
                if name == "list_append",
                    arguments.contains(where: {
                        if case .call("list_append", _) = $0.unwrapped { true } else { false }
                    })
                {
                    throw Message.functionMisused(name)
                }
            } else {
                if Functions.updates[name] != nil { throw Message.functionInCondition(name) }
                if inCondition != (Functions.conditions[name] != nil) { throw Message.functionMisused(name) }
                if arguments.count != arity { throw Message.operandCount(name, arguments.count) }
            }
            for argument in arguments {
                try visit(argument, inCondition: false, update: update, operators: &operators)
            }
        }
    }

    private static func visit(_ path: RawPath) throws(ExpressionProblem) {
        for step in path.steps {
            switch step {
            case .index(let digits):
                if digits.count > 10 || (Int(digits) ?? .max) > Int(Int32.max) { throw Message.listIndex(digits) }
            case .name(let name):
                if ReservedWords.contains(name) { throw Message.reserved(name) }
            case .placeholder:
                break
            }
        }
    }
}
