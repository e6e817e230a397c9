/// A DynamoDB item: attribute names to values.
public typealias Item = [String: AttributeValue]

/// One DynamoDB attribute value, of any of the ten types.
///
/// On the wire a value is an object with exactly one member naming its type:
/// `{"S": "text"}`, `{"N": "12.5"}`, `{"B": "<base64>"}`, `{"SS": [...]}`, `{"NS": [...]}`,
/// `{"BS": [...]}`, `{"M": {...}}`, `{"L": [...]}`, `{"NULL": true}`, `{"BOOL": false}`.
///
/// Sets keep the order they were given in; equality of sets ignores that order.
public indirect enum AttributeValue: Sendable {
    case s(String)
    case n(DynamoNumber)
    case b([UInt8])
    case ss([String])
    case ns([DynamoNumber])
    case bs([[UInt8]])
    case m([String: AttributeValue])
    case l([AttributeValue])
    case null
    case bool(Bool)

    /// The type descriptor DynamoDB uses for this value (`S`, `N`, `B`, `SS`, …).
    public var typeDescriptor: String {
        switch self {
        case .s: "S"
        case .n: "N"
        case .b: "B"
        case .ss: "SS"
        case .ns: "NS"
        case .bs: "BS"
        case .m: "M"
        case .l: "L"
        case .null: "NULL"
        case .bool: "BOOL"
        }
    }
}

extension AttributeValue: Hashable {
    public static func == (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.s(let a), .s(let b)): a == b
        case (.n(let a), .n(let b)): a == b
        case (.b(let a), .b(let b)): a == b
        case (.ss(let a), .ss(let b)): Set(a) == Set(b)
        case (.ns(let a), .ns(let b)): Set(a) == Set(b)
        case (.bs(let a), .bs(let b)): Set(a) == Set(b)
        case (.m(let a), .m(let b)): a == b
        case (.l(let a), .l(let b)): a == b
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeDescriptor)
        switch self {
        case .s(let value): hasher.combine(value)
        case .n(let value): hasher.combine(value)
        case .b(let value): hasher.combine(value)
        case .ss(let value): hasher.combine(Set(value))
        case .ns(let value): hasher.combine(Set(value))
        case .bs(let value): hasher.combine(Set(value))
        case .m(let value): hasher.combine(value)
        case .l(let value): hasher.combine(value)
        case .null: break
        case .bool(let value): hasher.combine(value)
        }
    }
}

extension AttributeValue: CustomStringConvertible {
    /// The value's wire JSON, e.g. `{"S":"abc"}`.
    public var description: String {
        var writer = JSONWriter()
        encode(to: &writer)
        return writer.string
    }
}
