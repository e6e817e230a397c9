import DynamoAPI
import DynamoClient
import Foundation

/// A Swift type an ``Attribute`` can hold, with its DynamoDB form.
///
/// The store provides the conformances for `String`, `Int`, `Int16`, `Int32`, `Int64`,
/// `Decimal`, `Double`, `Float`, `Bool`, `Date`, `Data`, `UUID`, `URL` and `Optional` of
/// them; a `Codable` type opts in with `extension MyType: PersistentCodable {}` and is stored
/// as the map DynamoClient's `ItemEncoder` makes.
public protocol PersistentValue {
    /// How the model describes the type.
    static var attributeType: AttributeType { get }
    /// Whether the type admits "no value" (`Optional`).
    static var isOptionalType: Bool { get }
    /// What a non-optional property reads before it has a value (a fault whose row was
    /// deleted, an object not yet filled in); validation still reports the value as missing.
    static var placeholder: Self { get }
    /// The DynamoDB value, or `nil` for "no value".
    func storedValue() throws(StoreError) -> AttributeValue?
    /// Decodes the DynamoDB value.
    init(storedValue: AttributeValue) throws(StoreError)
}

extension PersistentValue {
    /// Non-optional by default.
    public static var isOptionalType: Bool { false }
}

extension Optional: PersistentValue where Wrapped: PersistentValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptionalType: Bool { true }
    public static var placeholder: Self { nil }
    public func storedValue() throws(StoreError) -> AttributeValue? {
        guard let self else { return nil }
        return try self.storedValue()
    }
    public init(storedValue: AttributeValue) throws(StoreError) {
        self = .some(try Wrapped(storedValue: storedValue))
    }
}

extension String: PersistentValue {
    public static var attributeType: AttributeType { .string }
    public static var placeholder: String { "" }
    public func storedValue() throws(StoreError) -> AttributeValue? { .s(self) }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .s(let text) = storedValue else { throw .mismatch(storedValue, "String") }
        self = text
    }
}

extension Bool: PersistentValue {
    public static var attributeType: AttributeType { .bool }
    public static var placeholder: Bool { false }
    public func storedValue() throws(StoreError) -> AttributeValue? { .bool(self) }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .bool(let flag) = storedValue else { throw .mismatch(storedValue, "Bool") }
        self = flag
    }
}

extension Data: PersistentValue {
    public static var attributeType: AttributeType { .data }
    public static var placeholder: Data { Data() }
    public func storedValue() throws(StoreError) -> AttributeValue? { .b([UInt8](self)) }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .b(let bytes) = storedValue else { throw .mismatch(storedValue, "Data") }
        self = Data(bytes)
    }
}

extension UUID: PersistentValue {
    public static var attributeType: AttributeType { .uuid }
    public static var placeholder: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    public func storedValue() throws(StoreError) -> AttributeValue? { .s(uuidString) }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .s(let text) = storedValue, let uuid = UUID(uuidString: text) else {
            throw .mismatch(storedValue, "UUID")
        }
        self = uuid
    }
}

extension URL: PersistentValue {
    public static var attributeType: AttributeType { .url }
    public static var placeholder: URL { URL(string: "about:blank")! }
    public func storedValue() throws(StoreError) -> AttributeValue? { .s(absoluteString) }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .s(let text) = storedValue, let url = URL(string: text) else { throw .mismatch(storedValue, "URL") }
        self = url
    }
}

extension Date: PersistentValue {
    public static var attributeType: AttributeType { .date }
    public static var placeholder: Date { Date(timeIntervalSince1970: 0) }
    /// ISO 8601 with milliseconds in UTC, e.g. `2026-11-22T04:02:24.123Z`, rounded to the nearest
    /// millisecond (the client's ``ItemEncoder`` form): sorts as it compares, and a date at
    /// millisecond precision reads back equal.
    public func storedValue() throws(StoreError) -> AttributeValue? { .s(ISO8601Milliseconds.string(from: self)) }
    public init(storedValue: AttributeValue) throws(StoreError) {
        // Rows written by other programs may lack the milliseconds or use an offset.
        guard case .s(let text) = storedValue, let date = ISO8601Milliseconds.date(from: text) else {
            throw .mismatch(storedValue, "Date")
        }
        self = date
    }
}

/// Numbers are stored as `N` from their decimal text, which `DynamoNumber` keeps exactly.
protocol PersistentNumber: PersistentValue, LosslessStringConvertible {}

extension PersistentNumber {
    public func storedValue() throws(StoreError) -> AttributeValue? {
        do { return .n(try DynamoNumber(parsing: description)) } catch {
            throw .invalidValue("\(description) cannot be stored as a DynamoDB number (\(error.message ?? ""))")
        }
    }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .n(let number) = storedValue else { throw .mismatch(storedValue, "\(Self.self)") }
        guard let value = Self(number.description) ?? Self.parseExponent(number.description) else {
            throw .undecodableValue("\(number) does not fit \(Self.self)")
        }
        self = value
    }
    /// Integers print without exponent; `Double("1E+5")` parses directly, so only integer
    /// types reach this with exponent forms such as `1E+2`.
    static func parseExponent(_ text: String) -> Self? {
        guard let decimal = Decimal(string: text) else { return nil }
        return Self(NSDecimalNumber(decimal: decimal).stringValue)
    }
}

extension Int: PersistentNumber {
    public static var attributeType: AttributeType { .int64 }
    public static var placeholder: Int { 0 }
}
extension Int16: PersistentNumber {
    public static var attributeType: AttributeType { .int16 }
    public static var placeholder: Int16 { 0 }
}
extension Int32: PersistentNumber {
    public static var attributeType: AttributeType { .int32 }
    public static var placeholder: Int32 { 0 }
}
extension Int64: PersistentNumber {
    public static var attributeType: AttributeType { .int64 }
    public static var placeholder: Int64 { 0 }
}
extension Double: PersistentNumber {
    public static var attributeType: AttributeType { .double }
    public static var placeholder: Double { 0 }
}
extension Float: PersistentNumber {
    public static var attributeType: AttributeType { .float }
    public static var placeholder: Float { 0 }
}

extension Decimal: PersistentValue {
    public static var attributeType: AttributeType { .decimal }
    public static var placeholder: Decimal { 0 }
    public func storedValue() throws(StoreError) -> AttributeValue? {
        guard !isNaN else { throw .invalidValue("NaN cannot be stored as a DynamoDB number") }
        do { return .n(try DynamoNumber(parsing: description)) } catch {
            throw .invalidValue("\(description) cannot be stored as a DynamoDB number (\(error.message ?? ""))")
        }
    }
    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .n(let number) = storedValue, let value = Decimal(string: number.description) else {
            throw .mismatch(storedValue, "Decimal")
        }
        self = value
    }
}

/// A `Codable` value stored as the `M` (or `L`, or scalar) DynamoClient's `ItemEncoder` makes.
///
/// ```swift
/// struct Address: Codable, PersistentCodable { var street: String; var city: String }
/// final class Venue: ManagedObject { @Attribute var address: Address? }
/// ```
public protocol PersistentCodable: PersistentValue, Codable {}

extension PersistentCodable {
    public static var attributeType: AttributeType { .codable }
    /// Codable values have no natural empty value: reading one that is absent is a programming
    /// error (declare the property optional when it may be missing).
    public static var placeholder: Self {
        preconditionFailure("\(Self.self) has no value; declare the attribute optional if it may be absent")
    }
    public func storedValue() throws(StoreError) -> AttributeValue? {
        do { return try ItemEncoder().encodeAttribute(self) } catch {
            throw .invalidValue("\(Self.self) does not encode: \(error)")
        }
    }
    public init(storedValue: AttributeValue) throws(StoreError) {
        do { self = try ItemDecoder().decode(Self.self, fromAttribute: storedValue) } catch {
            throw .undecodableValue("\(Self.self): \(error)")
        }
    }
}

extension StoreError {
    static func mismatch(_ value: AttributeValue, _ type: String) -> StoreError {
        .undecodableValue("\(value) is not a \(type)")
    }
}
