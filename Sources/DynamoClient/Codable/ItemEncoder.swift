import DynamoAPI
import Foundation

/// Encodes `Encodable` Swift values as DynamoDB items.
///
/// Structs and dictionaries with `String` keys become maps (`M`; at the top level, the item),
/// arrays and Swift sets become lists (`L`), strings `S`, numbers `N` (exactly as Swift prints
/// them), `Bool` `BOOL`, `Data` `B`, ``DynamoSet`` `SS`/`NS`/`BS`, `Date` per
/// ``DateStrategy`` (ISO 8601 text by default, which sorts chronologically), `URL` and
/// `UUID` `S`, and `Decimal` `N`. `nil` optionals are left out.
///
/// ```swift
/// struct Note: Codable { var id: String; var text: String; var created: Date }
/// let item = try ItemEncoder().encode(Note(id: "1", text: "hi", created: .now))
/// ```
public struct ItemEncoder: Sendable {
    /// How dates are stored, and (for ``ItemDecoder``) how a stored number is read.
    ///
    /// Every date at millisecond precision reads back equal to the one written, under every
    /// strategy, when the decoder uses the encoder's strategy.
    public enum DateStrategy: Sendable, Hashable {
        /// `S` as ISO 8601 with milliseconds in UTC (`2024-05-01T12:00:00.000Z`), rounded to
        /// the nearest millisecond; the default. Decoding reads a number as seconds.
        case iso8601
        /// `N` as seconds since 1970, with a fraction when there is one (what TTL attributes need,
        /// after rounding to whole seconds).
        case secondsSince1970
        /// `N` as whole milliseconds since 1970 (rounded); decoding reads a number as milliseconds.
        case millisecondsSince1970
    }

    /// How dates are stored (default ``DateStrategy/iso8601``).
    public var dateStrategy: DateStrategy = .iso8601

    /// Creates an encoder with the default strategies.
    public init() {}

    /// Encodes a value whose encoding is a map (a struct, a class, a `[String: …]`) as an item.
    ///
    /// - Throws: `EncodingError.invalidValue` when the value does not encode to a map or holds
    ///   an unrepresentable number (NaN, infinity, more than 38 digits).
    public func encode(_ value: some Encodable) throws -> Item {
        guard case .m(let item) = try encodeAttribute(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "an item must encode to a map"))
        }
        return item
    }

    /// Encodes any value as one attribute value.
    ///
    /// - Throws: `EncodingError.invalidValue` when the value encodes to nothing or holds an
    ///   unrepresentable number.
    public func encodeAttribute(_ value: some Encodable) throws -> AttributeValue {
        let box = EncodingBox()
        try ItemEncoding(box: box, codingPath: [], strategy: dateStrategy).encodeValue(value)
        guard let result = box.resolved() else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "the value encoded to nothing"))
        }
        return result
    }
}

/// What one encoding step has written so far.
final class EncodingBox {
    enum Content {
        case empty
        case value(AttributeValue)
        case map([String: EncodingBox])
        case list([EncodingBox])
    }

    var content: Content = .empty

    /// The attribute value, `nil` when nothing was written (the attribute is left out).
    func resolved() -> AttributeValue? {
        switch content {
        case .empty: nil
        case .value(let value): value
        case .map(let members): .m(members.compactMapValues { $0.resolved() })
        case .list(let elements): .l(elements.map { $0.resolved() ?? .null })
        }
    }
}

/// The `Encoder` the item encoder hands to `encode(to:)`.
struct ItemEncoding: Encoder {
    let box: EncodingBox
    let codingPath: [any CodingKey]
    let strategy: ItemEncoder.DateStrategy
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = box.content {} else { box.content = .map([:]) }
        return KeyedEncodingContainer(KeyedItemEncoding<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = box.content {} else { box.content = .list([]) }
        return UnkeyedItemEncoding(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleItemEncoding(encoder: self) }

    /// An encoder for a child at `key` writing into `child`.
    func child(_ child: EncodingBox, key: any CodingKey) -> ItemEncoding {
        ItemEncoding(box: child, codingPath: codingPath + [key], strategy: strategy)
    }

    /// Encodes a value into this encoder's box, handling the types with a DynamoDB form first.
    func encodeValue(_ value: some Encodable) throws {
        switch value {
        case let date as Date: box.content = .value(try encodeDate(date))
        case let data as Data: box.content = .value(.b([UInt8](data)))
        case let set as any AnyDynamoSet: box.content = try set.attributeValue().map { .value($0) } ?? .empty
        case let url as URL: box.content = .value(.s(url.absoluteString))
        case let uuid as UUID: box.content = .value(.s(uuid.uuidString))
        case let decimal as Decimal: box.content = .value(.n(try number(decimal.description, value)))
        default: try value.encode(to: self)
        }
    }

    func encodeDate(_ date: Date) throws -> AttributeValue {
        switch strategy {
        case .iso8601:
            return .s(ISO8601Milliseconds.string(from: date))
        case .secondsSince1970:
            let seconds = date.timeIntervalSince1970
            let milliseconds = (seconds * 1000).rounded()
            // A date at millisecond precision is written as its exact decimal (`1700000000.123`),
            // which reads back as the same `Date`; Swift's shortest text for the binary value
            // (`1700000000.1229999`) might not.
            if abs(milliseconds) < 1e15, Date(timeIntervalSince1970: milliseconds / 1000) == date {
                return .n(try number(Self.decimalSeconds(milliseconds: Int64(milliseconds)), date))
            }
            return .n(try number("\(seconds)", date))
        case .millisecondsSince1970:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            guard abs(milliseconds) < 9e18 else { return .n(try number("\(milliseconds)", date)) }
            return .n(try number(String(Int64(milliseconds)), date))
        }
    }

    /// `milliseconds / 1000` as exact decimal text without trailing zeros (`-12.5`, `1700000000`).
    static func decimalSeconds(milliseconds: Int64) -> String {
        let magnitude = milliseconds.magnitude
        var text = (milliseconds < 0 ? "-" : "") + String(magnitude / 1000)
        let fraction = magnitude % 1000
        guard fraction != 0 else { return text }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        text += "." + digits
        return text
    }

    /// A DynamoDB number from Swift's text for it.
    func number(_ text: String, _ value: Any) throws -> DynamoNumber {
        do {
            return try DynamoNumber(parsing: text)
        } catch {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(text): \(error)"))
        }
    }
}

struct KeyedItemEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ItemEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func insert(_ key: Key) -> EncodingBox {
        let child = EncodingBox()
        if case .map(var members) = encoder.box.content {
            members[key.stringValue] = child
            encoder.box.content = .map(members)
        }
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { insert(key).content = .value(.null) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try encoder.child(insert(key), key: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(insert(key), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(insert(key), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = ItemCodingKey("super")
        let child = EncodingBox()
        if case .map(var members) = encoder.box.content {
            members[key.stringValue] = child
            encoder.box.content = .map(members)
        }
        return encoder.child(child, key: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.child(insert(key), key: key) }
}

struct UnkeyedItemEncoding: UnkeyedEncodingContainer {
    let encoder: ItemEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
        if case .list(let elements) = encoder.box.content { return elements.count }
        return 0
    }

    private func append() -> (EncodingBox, ItemCodingKey) {
        let child = EncodingBox()
        let index = count
        if case .list(var elements) = encoder.box.content {
            elements.append(child)
            encoder.box.content = .list(elements)
        }
        return (child, ItemCodingKey(index: index))
    }

    mutating func encodeNil() throws { append().0.content = .value(.null) }

    mutating func encode(_ value: some Encodable) throws {
        let (child, key) = append()
        try encoder.child(child, key: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (child, key) = append()
        return encoder.child(child, key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (child, key) = append()
        return encoder.child(child, key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let (child, key) = append()
        return encoder.child(child, key: key)
    }
}

struct SingleItemEncoding: SingleValueEncodingContainer {
    let encoder: ItemEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: AttributeValue) { encoder.box.content = .value(value) }
    private func setNumber(_ text: String, _ value: Any) throws { set(.n(try encoder.number(text, value))) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.s(value)) }
    mutating func encode(_ value: Double) throws { try setNumber(finite(value), value) }
    mutating func encode(_ value: Float) throws { try setNumber(finite(value), value) }
    mutating func encode(_ value: Int) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: Int8) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: Int16) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: Int32) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: Int64) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: UInt) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: UInt8) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: UInt16) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: UInt32) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: UInt64) throws { try setNumber(String(value), value) }
    mutating func encode(_ value: some Encodable) throws { try encoder.encodeValue(value) }

    /// The shortest text that reads back as `value` (a `Float` as a `Float`: `0.1`, not the
    /// `0.10000000149011612` of its `Double`, so vectors stay small on the wire and in storage).
    private func finite<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "DynamoDB numbers must be finite"))
        }
        return "\(value)"
    }
}

/// A coding key for list positions and `super`.
struct ItemCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
