import Foundation

/// A constant in a fetch predicate: a Swift value given as an argument or written as a literal,
/// or a substitution variable (`$name`) still waiting for its value.
///
/// Values are typed by the attribute they are compared with when the request is built, so
/// `age > 3` stores `3` as a DynamoDB number and `name == "3"` as a string.
public indirect enum PredicateValue: Sendable, Hashable {
    /// `nil` / `NULL`: compares as "the attribute is absent".
    case null
    /// A string.
    case string(String)
    /// An integer.
    case int(Int64)
    /// A binary floating-point number.
    case double(Double)
    /// A decimal number.
    case decimal(Decimal)
    /// A Boolean.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// Bytes.
    case data(Data)
    /// A URL.
    case url(URL)
    /// A list of values (the right side of `IN`, or `{a, b}` for `BETWEEN`).
    case list([PredicateValue])
    /// A stored object, by identity, for comparisons of a to-one relationship.
    case object(ObjectID)
    /// A substitution variable `$name`, replaced by ``FetchPredicate/substituting(_:)``.
    case variable(String)

    /// How the value reads in a predicate's description.
    var formatted: String {
        switch self {
        case .null: "nil"
        case .string(let text):
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .decimal(let value): "\(value)"
        case .bool(let value): value ? "YES" : "NO"
        case .date(let value): "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .uuid(let value): value.uuidString
        case .data(let value): "<\(value.map { String(format: "%02x", $0) }.joined())>"
        case .url(let value): value.absoluteString
        case .list(let values): "{" + values.map(\.formatted).joined(separator: ", ") + "}"
        case .object(let id): id.description
        case .variable(let name): "$" + name
        }
    }

    /// A short name of the value's kind, for messages (`a string`, `a number`, …).
    var kindDescription: String {
        switch self {
        case .null: "nil"
        case .string: "a string"
        case .int, .double, .decimal: "a number"
        case .bool: "a Boolean"
        case .date: "a date"
        case .uuid: "a UUID"
        case .data: "data"
        case .url: "a URL"
        case .list: "a list"
        case .object(let id): "a \(id.entityName) object"
        case .variable(let name): "the unsubstituted variable $\(name)"
        }
    }
}

/// Anything that can be a `%@` argument of ``FetchPredicate/init(_:_:)``: every
/// ``PredicateArgument``, and managed objects, which become their ``ObjectID`` when the
/// predicate is built (the predicate keeps only `Sendable` values, never the object).
public protocol PredicateOperand {
    /// The value as a predicate constant.
    var predicateValue: PredicateValue { get }
}

/// A Swift value that can be a predicate argument (`%@`) or a substitution variable's value.
///
/// The standard scalar types, `Date`, `UUID`, `Data`, `URL`, `Decimal`, arrays and sets of
/// them, and optionals conform.
public protocol PredicateArgument: PredicateOperand, Sendable {}

extension ManagedObject: PredicateOperand {
    /// `.object(objectID)`: `FetchPredicate("location == %@", home)` compares keys.
    public var predicateValue: PredicateValue { .object(objectID) }
}

extension PredicateValue: PredicateArgument {
    /// The value itself.
    public var predicateValue: PredicateValue { self }
}

extension ObjectID: PredicateArgument {
    /// `.object(self)`.
    public var predicateValue: PredicateValue { .object(self) }
}

extension String: PredicateArgument {
    /// `.string(self)`.
    public var predicateValue: PredicateValue { .string(self) }
}

extension Substring: PredicateArgument {
    /// `.string(String(self))`.
    public var predicateValue: PredicateValue { .string(String(self)) }
}

extension Bool: PredicateArgument {
    /// `.bool(self)`.
    public var predicateValue: PredicateValue { .bool(self) }
}

extension Double: PredicateArgument {
    /// `.double(self)`.
    public var predicateValue: PredicateValue { .double(self) }
}

extension Float: PredicateArgument {
    /// `.double(Double(self))`.
    public var predicateValue: PredicateValue { .double(Double(self)) }
}

extension Decimal: PredicateArgument {
    /// `.decimal(self)`.
    public var predicateValue: PredicateValue { .decimal(self) }
}

extension Date: PredicateArgument {
    /// `.date(self)`.
    public var predicateValue: PredicateValue { .date(self) }
}

extension UUID: PredicateArgument {
    /// `.uuid(self)`.
    public var predicateValue: PredicateValue { .uuid(self) }
}

extension Data: PredicateArgument {
    /// `.data(self)`.
    public var predicateValue: PredicateValue { .data(self) }
}

extension URL: PredicateArgument {
    /// `.url(self)`.
    public var predicateValue: PredicateValue { .url(self) }
}

extension Int: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension Int8: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension Int16: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension Int32: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension Int64: PredicateArgument {
    /// `.int(self)`.
    public var predicateValue: PredicateValue { .int(self) }
}

extension UInt8: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension UInt16: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension UInt32: PredicateArgument {
    /// `.int(Int64(self))`.
    public var predicateValue: PredicateValue { .int(Int64(self)) }
}

extension Array: PredicateOperand where Element: PredicateArgument {}

extension Array: PredicateArgument where Element: PredicateArgument {
    /// `.list` of the elements.
    public var predicateValue: PredicateValue { .list(map(\.predicateValue)) }
}

extension Set: PredicateOperand where Element: PredicateArgument {}

extension Set: PredicateArgument where Element: PredicateArgument {
    /// `.list` of the elements (in the set's order).
    public var predicateValue: PredicateValue { .list(map(\.predicateValue)) }
}

extension Optional: PredicateOperand where Wrapped: PredicateArgument {}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    /// The wrapped value's, or `.null`.
    public var predicateValue: PredicateValue { self?.predicateValue ?? .null }
}
