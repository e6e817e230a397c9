import DynamoAPI
import Foundation

/// Decodes DynamoDB items into `Decodable` Swift values: the inverse of ``ItemEncoder``.
///
/// A missing attribute or `NULL` decodes as `nil` for an optional, a missing set as an empty
/// ``DynamoSet``; arrays decode from lists and from sets; dates from ISO 8601 text or an epoch
/// number (whichever the attribute holds, the number read per ``dateStrategy``); numbers must
/// fit the Swift type exactly.
///
/// ```swift
/// let note = try ItemDecoder().decode(Note.self, from: item)
/// ```
public struct ItemDecoder: Sendable {
    /// How dates are read: the encoder's strategies, one enum for both.
    public typealias DateStrategy = ItemEncoder.DateStrategy

    /// How a date stored as a number is read: seconds since 1970 for ``DateStrategy/iso8601``
    /// (the default) and ``DateStrategy/secondsSince1970``, milliseconds for
    /// ``DateStrategy/millisecondsSince1970``. ISO 8601 text is read under every strategy.
    ///
    /// ```swift
    /// var decoder = ItemDecoder()
    /// decoder.dateStrategy = .millisecondsSince1970
    /// ```
    public var dateStrategy: DateStrategy = .iso8601

    /// Creates a decoder with the default strategies.
    public init() {}

    /// Decodes a value from an item.
    ///
    /// - Throws: `DecodingError` naming the attribute path on a missing key or a type mismatch.
    public func decode<T: Decodable>(_ type: T.Type, from item: Item) throws -> T {
        try decode(type, fromAttribute: .m(item))
    }

    /// Decodes a value from one attribute value.
    ///
    /// - Throws: `DecodingError` on a type mismatch.
    public func decode<T: Decodable>(_ type: T.Type, fromAttribute value: AttributeValue) throws -> T {
        try ItemDecoding(value: value, codingPath: [], strategy: dateStrategy).decodeValue(type)
    }
}

/// The `Decoder` the item decoder hands to `init(from:)`.
struct ItemDecoding: Decoder {
    let value: AttributeValue
    let codingPath: [any CodingKey]
    let strategy: ItemDecoder.DateStrategy
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .m(let members) = value else { throw mismatch([String: AttributeValue].self, "a map (M)") }
        return KeyedDecodingContainer(KeyedItemDecoding<Key>(members: members, codingPath: codingPath, strategy: strategy))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let elements: [AttributeValue]
        switch value {
        case .l(let list): elements = list
        case .ss(let strings): elements = strings.map { .s($0) }
        case .ns(let numbers): elements = numbers.map { .n($0) }
        case .bs(let blobs): elements = blobs.map { .b($0) }
        default: throw mismatch([AttributeValue].self, "a list (L) or set")
        }
        return UnkeyedItemDecoding(elements: elements, codingPath: codingPath, strategy: strategy)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleItemDecoding(decoder: self) }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        .typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "expected \(expected), found \(value.typeDescriptor)"))
    }

    /// Decodes a value, handling the types with a DynamoDB form first.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self { return try decodeDate() as! T }
        if type == Data.self {
            guard case .b(let bytes) = value else { throw mismatch(Data.self, "binary (B)") }
            return Data(bytes) as! T
        }
        if let setType = type as? any AnyDynamoSet.Type {
            guard let set = setType.init(attribute: value) else { throw mismatch(type, "a set of the element type") }
            return set as! T
        }
        if type == URL.self {
            guard case .s(let text) = value, let url = URL(string: text) else { throw mismatch(URL.self, "a URL string (S)") }
            return url as! T
        }
        if type == UUID.self {
            guard case .s(let text) = value, let uuid = UUID(uuidString: text) else { throw mismatch(UUID.self, "a UUID string (S)") }
            return uuid as! T
        }
        if type == Decimal.self {
            guard case .n(let number) = value, let decimal = Decimal(string: number.description) else {
                throw mismatch(Decimal.self, "a number (N)")
            }
            return decimal as! T
        }
        return try T(from: self)
    }

    private func decodeDate() throws -> Date {
        switch value {
        case .s(let text):
            if let date = ISO8601Milliseconds.date(from: text) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
        case .n(let number):
            let unit = strategy == .millisecondsSince1970 ? "epoch milliseconds (N)" : "epoch seconds (N)"
            guard let count = Double(number.description), count.isFinite else { throw mismatch(Date.self, unit) }
            return strategy == .millisecondsSince1970
                ? Date(timeIntervalSince1970: count / 1000) : Date(timeIntervalSince1970: count)
        default:
            throw mismatch(Date.self, "an ISO 8601 string (S) or an epoch number (N)")
        }
    }
}

struct KeyedItemDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: AttributeValue]
    let codingPath: [any CodingKey]
    let strategy: ItemDecoder.DateStrategy
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = members[key.stringValue] else { return true }
        return value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = members[key.stringValue] else {
            if let setType = type as? any AnyDynamoSet.Type { return setType.init() as! T }
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no attribute \(key.stringValue)"))
        }
        return try ItemDecoding(value: value, codingPath: codingPath + [key], strategy: strategy).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ItemDecoding(value: members["super"] ?? .null, codingPath: codingPath + [ItemCodingKey("super")], strategy: strategy)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }

    private func decoder(for key: Key) throws -> ItemDecoding {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no attribute \(key.stringValue)"))
        }
        return ItemDecoding(value: value, codingPath: codingPath + [key], strategy: strategy)
    }
}

struct UnkeyedItemDecoding: UnkeyedDecodingContainer {
    let elements: [AttributeValue]
    let codingPath: [any CodingKey]
    let strategy: ItemDecoder.DateStrategy
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [AttributeValue], codingPath: [any CodingKey], strategy: ItemDecoder.DateStrategy) {
        self.elements = elements
        self.codingPath = codingPath
        self.strategy = strategy
    }

    private mutating func nextDecoder(_ type: Any.Type) throws -> ItemDecoding {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "list is exhausted"))
        }
        defer { currentIndex += 1 }
        return ItemDecoding(value: elements[currentIndex], codingPath: codingPath + [ItemCodingKey(index: currentIndex)], strategy: strategy)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try nextDecoder(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder([String: AttributeValue].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder([AttributeValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try nextDecoder(Any.self) }
}

struct SingleItemDecoding: SingleValueDecodingContainer {
    let decoder: ItemDecoding
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = decoder.value else { throw decoder.mismatch(type, "a boolean (BOOL)") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .s(let text) = decoder.value else { throw decoder.mismatch(type, "a string (S)") }
        return text
    }

    private func number<T>(_ type: T.Type, _ convert: (String) -> T?) throws -> T {
        guard case .n(let number) = decoder.value else { throw decoder.mismatch(type, "a number (N)") }
        guard let value = convert(number.description) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(number) does not fit \(type)"))
        }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double { try number(type) { Double($0) } }
    func decode(_ type: Float.Type) throws -> Float { try number(type) { Float($0) } }
    func decode(_ type: Int.Type) throws -> Int { try number(type) { Int($0) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try number(type) { Int8($0) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try number(type) { Int16($0) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try number(type) { Int32($0) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try number(type) { Int64($0) } }
    func decode(_ type: UInt.Type) throws -> UInt { try number(type) { UInt($0) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try number(type) { UInt8($0) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try number(type) { UInt16($0) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try number(type) { UInt32($0) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try number(type) { UInt64($0) } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
