/// The value type of a modelled attribute, which also fixes how it is stored in DynamoDB.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    /// `String`, stored as `S`.
    case string
    /// `Int16`, stored as `N`.
    case int16
    /// `Int32`, stored as `N`.
    case int32
    /// `Int64` (and `Int`), stored as `N`.
    case int64
    /// `Decimal`, stored as `N` with every digit kept (DynamoDB keeps 38).
    case decimal
    /// `Double`, stored as `N`.
    case double
    /// `Float`, stored as `N`.
    case float
    /// `Bool`, stored as `BOOL`.
    case bool
    /// `Date`, stored as `S` in ISO 8601 form with milliseconds, UTC (sorts as it compares).
    case date
    /// `Data`, stored as `B`.
    case data
    /// `UUID`, stored as `S` (upper-case, as `UUID.uuidString`).
    case uuid
    /// `URL`, stored as `S` (its absolute string).
    case url
    /// Any `Codable` value, stored as the `M` (or `L`) that DynamoClient's item encoder makes.
    case codable
    /// `Set<String>`, stored as `SS`; the empty set is stored as an absent attribute.
    case stringSet
    /// `Set<Int>`, stored as `NS`; the empty set is stored as an absent attribute.
    case numberSet
    /// `Set<Data>`, stored as `BS`; the empty set is stored as an absent attribute.
    case dataSet
    /// `[Float]`, stored as a list (`L`) of numbers (`N`), each the shortest text that reads back
    /// as the same `Float`: the form a vector index reads (see ``EntityVectorIndex``).
    case floatVector
    /// `[Double]`, stored as a list (`L`) of numbers (`N`); a vector index reads it at `Float`
    /// precision.
    case doubleVector

    /// Whether the type is a DynamoDB set (never required: empty is absent).
    public var isSet: Bool { self == .stringSet || self == .numberSet || self == .dataSet }

    /// Whether the type is a vector (`[Float]` or `[Double]`), which a vector index can read.
    public var isVector: Bool { self == .floatVector || self == .doubleVector }

    /// The DynamoDB scalar type (`S`, `N` or `B`) an attribute of this type has when it is a
    /// table or index key, or `nil` when the type cannot be a key (`bool`, `codable`).
    public var keyScalarType: String? {
        switch self {
        case .string, .date, .uuid, .url: "S"
        case .int16, .int32, .int64, .decimal, .double, .float: "N"
        case .data: "B"
        case .bool, .codable, .stringSet, .numberSet, .dataSet, .floatVector, .doubleVector: nil
        }
    }
}

/// One attribute of an entity: its name in code, its name in DynamoDB and its type.
public struct AttributeDescription: Sendable, Hashable {
    /// The property name, as code and predicates use it.
    public var name: String
    /// The attribute name in the DynamoDB item (defaults to `name`).
    public var storageName: String
    /// The value type.
    public var type: AttributeType
    /// Whether the attribute may be absent (`nil`). Key attributes never are.
    public var isOptional: Bool
    /// The allowed values, checked before a save: a number's value, a string's length in
    /// characters, data's length in bytes (`nil`: anything).
    public var range: ClosedRange<Double>?

    /// Describes an attribute.
    ///
    /// - Parameters:
    ///   - name: the property name.
    ///   - type: the value type.
    ///   - isOptional: whether `nil` is allowed.
    ///   - storageName: the DynamoDB attribute name, when it differs from `name`.
    ///   - range: the allowed values (number), lengths (string, data).
    public init(
        _ name: String, _ type: AttributeType, isOptional: Bool = false, storageName: String? = nil,
        range: ClosedRange<Double>? = nil
    ) {
        self.name = name
        self.storageName = storageName ?? name
        self.type = type
        self.isOptional = isOptional
        self.range = range
    }
}
