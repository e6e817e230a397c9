/// The syntax trees the parser builds, before placeholders are resolved. They depend only on
/// the expression's text, so they are what the cache keeps.

/// A document path as written: names, `#placeholders` and list indexes.
struct RawPath: Sendable, Equatable {
    var steps: [RawStep]
}

/// One step of a written path. An index keeps its digits, which may not fit an `Int`.
enum RawStep: Sendable, Equatable {
    case name(String)
    case placeholder(String)
    case index(String)
}

/// The operators of an update's `SET` value.
enum ArithmeticOperator: String, Sendable {
    case plus = "+"
    case minus = "-"
}

/// An operand as written.
indirect enum RawOperand: Sendable, Equatable {
    case path(RawPath)
    case value(String)
    case call(String, [RawOperand])
    case paren(RawOperand)
    case arithmetic(ArithmeticOperator, RawOperand, RawOperand)

    /// The operand inside any parentheses.
    var unwrapped: RawOperand {
        if case .paren(let inner) = self { return inner.unwrapped }
        return self
    }
}

/// A condition as written.
indirect enum RawCondition: Sendable, Equatable {
    case compare(Comparator, RawOperand, RawOperand)
    case between(RawOperand, RawOperand, RawOperand)
    case isIn(RawOperand, [RawOperand])
    case function(String, [RawOperand])
    case and(RawCondition, RawCondition)
    case or(RawCondition, RawCondition)
    case not(RawCondition)
    case paren(RawCondition)
}

/// The four sections of an update expression.
enum UpdateKeyword: String, Sendable {
    case set = "SET"
    case remove = "REMOVE"
    case add = "ADD"
    case delete = "DELETE"
}

/// One action of an update: the path, and the value (none for `REMOVE`; a `:value` for `ADD`
/// and `DELETE`; any `SET` value otherwise).
struct RawAction: Sendable, Equatable {
    var path: RawPath
    var value: RawOperand?
}

/// One section as written (a section keyword may appear more than once; that is an error found
/// after parsing).
struct RawClause: Sendable, Equatable {
    var keyword: UpdateKeyword
    var actions: [RawAction]
}

/// A parsed expression of any grammar.
enum RawExpression: Sendable, Equatable {
    case condition(RawCondition)
    case update([RawClause])
    case projection([RawPath])
}
