import DynamoAPI
import DynamoClient
import Foundation

/// Turns property values into their DynamoDB form and back, for the dynamic
/// `object["name"]` access; typed properties use their ``PersistentValue`` conformance, so
/// each type's storage rule lives once, there.
enum StoredValueCodec {
    /// The Swift type that reads an attribute of this type (`nil` for `codable`, read back as
    /// the raw `AttributeValue`).
    static func swiftType(of type: AttributeType) -> (any PersistentValue.Type)? {
        switch type {
        case .string: String.self
        case .int16: Int16.self
        case .int32: Int32.self
        case .int64: Int64.self
        case .decimal: Decimal.self
        case .double: Double.self
        case .float: Float.self
        case .bool: Bool.self
        case .date: Date.self
        case .data: Data.self
        case .uuid: UUID.self
        case .url: URL.self
        case .codable: nil
        case .stringSet: Set<String>.self
        case .numberSet: Set<Int>.self
        case .dataSet: Set<Data>.self
        case .floatVector: [Float].self
        case .doubleVector: [Double].self
        }
    }

    /// The DynamoDB form of a dynamically typed value for an attribute; `nil` for no value.
    ///
    /// Integers and floating-point values are accepted for every numeric type (and checked to
    /// fit); an `AttributeValue` is taken as already encoded; any other `Encodable` is encoded
    /// with `ItemEncoder` for `codable` attributes.
    static func encode(_ value: Any?, for attribute: AttributeDescription, entity: String) throws(StoreError) -> AttributeValue? {
        guard let value, !isNil(value) else { return nil }
        let path = "\(entity).\(attribute.name)"
        if let raw = value as? AttributeValue { return raw }
        if attribute.type == .codable {
            if let persistent = value as? any PersistentValue { return try persistent.storedValue() }
            guard let encodable = value as? any Encodable else { throw .invalidValue("\(path): \(type(of: value)) is not Encodable") }
            do { return try ItemEncoder().encodeAttribute(encodable) } catch {
                throw .invalidValue("\(path): \(error)")
            }
        }
        guard let swiftType = swiftType(of: attribute.type) else { throw .invalidValue(path) }
        if let persistent = value as? any PersistentValue,
            type(of: persistent).attributeType == attribute.type
                || (attribute.type.keyScalarType == "N" && persistent is any PersistentNumber)
        {
            let stored = try persistent.storedValue()
            // Check that the number fits the declared type (an Int into an Int16, …).
            if let stored, attribute.type.keyScalarType == "N" { _ = try swiftType.init(storedValue: stored) }
            return stored
        }
        throw .invalidValue("\(path) is \(attribute.type.rawValue); got \(type(of: value))")
    }

    /// The Swift value of a stored attribute: `String`, `Int16`, …, `URL`; `codable`
    /// attributes come back as their `AttributeValue` (decode them with `ItemDecoder`).
    static func decode(_ value: AttributeValue, for attribute: AttributeDescription) throws(StoreError) -> Any {
        guard let swiftType = swiftType(of: attribute.type) else { return value }
        return try swiftType.init(storedValue: value)
    }

    private static func isNil(_ value: Any) -> Bool {
        if case Optional<Any>.none = value { return true }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}
