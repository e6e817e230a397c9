/// A request's identity for idempotency: the same request always gives the same bytes, however
/// its maps were ordered on the wire or in memory.
///
/// DynamoDB remembers a `ClientRequestToken` with the request it came with and refuses a retry
/// whose parameters differ (`IdempotentParameterMismatchException`). "Differ" is by meaning, so
/// the canonical form compares
/// - maps as maps: object members sorted by name (a Swift dictionary's iteration order is not
///   stable between two equal dictionaries),
/// - sets as sets: the members of `SS`, `NS` and `BS` sorted,
/// - numbers by value: `N` and `NS` are written normalized (`1.50` and `1.5` are one number),
/// - lists and the order of a request's actions as given (they are ordered on the wire).
///
/// TransactWriteItems uses it for its actions; any other operation with a client token
/// (ExecuteTransaction's statements) builds its identity the same way.
///
/// ```swift
/// let first = CanonicalForm(input.transactItems)
/// first == CanonicalForm(retried.transactItems)   // true for the same request
/// ```
public struct CanonicalForm: Sendable, Hashable {
    /// The canonical JSON bytes.
    public let bytes: [UInt8]

    /// The canonical form of one shape (an operation's input or a structure inside one).
    public init(_ shape: some DynamoShape) {
        self.init(encoded: shape.jsonBytes)
    }

    /// The canonical form of an ordered list of shapes (a transaction's actions).
    public init(_ shapes: [some DynamoShape]) {
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "["))
        for (position, shape) in shapes.enumerated() {
            if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
            shape.encode(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "]"))
        self.init(encoded: writer.bytes)
    }

    /// Rewrites our own encoding canonically (numbers are already normalized by `DynamoNumber`).
    private init(encoded: [UInt8]) {
        // Shapes write valid JSON; a failure here would be a bug in an encoder, and the raw
        // bytes are still a (stricter) identity.
        guard let tree = try? JSONValue(parsing: encoded) else {
            bytes = encoded
            return
        }
        var writer = JSONWriter(reservingCapacity: encoded.count)
        writer.write(Self.canonical(tree))
        bytes = writer.bytes
    }

    /// Sorts the members of every set. Objects need nothing: `JSONWriter` writes their members
    /// sorted by name.
    ///
    /// An object whose only member is `SS`, `NS` or `BS` holding an array is an attribute value
    /// in every shape of the API: maps of attribute values hold objects, name maps hold strings,
    /// so no other member can take that form.
    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(canonical))
        case .object(let members):
            if members.count == 1, let (type, content) = members.first,
                type == "SS" || type == "NS" || type == "BS", case .array(let elements) = content
            {
                let sorted = elements.sorted { ($0.stringValue ?? "") < ($1.stringValue ?? "") }
                return .object([type: .array(sorted)])
            }
            return .object(members.mapValues(canonical))
        case .null, .bool, .number, .string:
            return value
        }
    }
}
