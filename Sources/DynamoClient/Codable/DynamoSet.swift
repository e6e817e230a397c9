import DynamoAPI
import Foundation

/// A type that can be an element of a DynamoDB set: strings (`SS`), numbers (`NS`) or binary
/// (`BS`).
public protocol DynamoSetElement: Hashable, Sendable {
    /// The set attribute holding `elements`.
    static func setAttribute(_ elements: [Self]) throws -> AttributeValue
    /// The elements of a set attribute of this element type, or `nil` for another type.
    static func elements(of attribute: AttributeValue) -> [Self]?
}

/// A DynamoDB set (`SS`, `NS` or `BS`) in a `Codable` type.
///
/// Swift's `Set` and `Array` encode as lists (`L`); wrap a property in `DynamoSet` to store it
/// as a set instead. An empty set is left out of the item (DynamoDB stores no empty sets) and
/// decodes from a missing attribute as empty.
///
/// ```swift
/// struct Post: Codable {
///     var id: String
///     var tags: DynamoSet<String>      // {"SS": [...]}
///     var scores: DynamoSet<Int>       // {"NS": [...]}
/// }
/// ```
public struct DynamoSet<Element: DynamoSetElement>: Hashable, Sendable, ExpressibleByArrayLiteral, Sequence {
    /// The elements.
    public var elements: Set<Element>

    /// Creates a set from a sequence of elements.
    public init(_ elements: some Sequence<Element>) {
        self.elements = Set(elements)
    }

    /// Creates a set from an array literal.
    public init(arrayLiteral elements: Element...) {
        self.elements = Set(elements)
    }

    /// Iterates the elements, in no particular order.
    public func makeIterator() -> Set<Element>.Iterator { elements.makeIterator() }

    /// Whether the set has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The number of elements.
    public var count: Int { elements.count }
}

/// What the item coders need from any `DynamoSet`, whatever its element type.
protocol AnyDynamoSet {
    /// The set attribute, `nil` when empty (so the attribute is left out).
    func attributeValue() throws -> AttributeValue?
    /// The set decoded from an attribute.
    init?(attribute: AttributeValue)
    /// An empty set.
    init()
}

extension DynamoSet: AnyDynamoSet {
    func attributeValue() throws -> AttributeValue? {
        elements.isEmpty ? nil : try Element.setAttribute(Array(elements))
    }

    init?(attribute: AttributeValue) {
        guard let elements = Element.elements(of: attribute) else { return nil }
        self.init(elements)
    }

    init() { self.init([Element]()) }
}

extension DynamoSet: Codable where Element: Codable {
    /// Decodes from a list when used with a coder other than ``ItemDecoder``.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd { elements.append(try container.decode(Element.self)) }
        self.init(elements)
    }

    /// Encodes as a list when used with a coder other than ``ItemEncoder``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements { try container.encode(element) }
    }
}

extension String: DynamoSetElement {
    /// `SS`.
    public static func setAttribute(_ elements: [String]) throws -> AttributeValue { .ss(elements) }
    /// The strings of an `SS`.
    public static func elements(of attribute: AttributeValue) -> [String]? {
        if case .ss(let values) = attribute { return values }
        return nil
    }
}

extension Data: DynamoSetElement {
    /// `BS`.
    public static func setAttribute(_ elements: [Data]) throws -> AttributeValue { .bs(elements.map { [UInt8]($0) }) }
    /// The blobs of a `BS`.
    public static func elements(of attribute: AttributeValue) -> [Data]? {
        if case .bs(let values) = attribute { return values.map { Data($0) } }
        return nil
    }
}

/// Numbers stored in an `NS` through their decimal text.
public protocol DynamoNumericSetElement: DynamoSetElement, LosslessStringConvertible {}

extension DynamoNumericSetElement {
    /// `NS`.
    public static func setAttribute(_ elements: [Self]) throws -> AttributeValue {
        .ns(try elements.map { try DynamoNumber(parsing: $0.description) })
    }

    /// The numbers of an `NS` that fit this type.
    public static func elements(of attribute: AttributeValue) -> [Self]? {
        guard case .ns(let values) = attribute else { return nil }
        let converted = values.compactMap { Self($0.description) }
        return converted.count == values.count ? converted : nil
    }
}

extension Int: DynamoNumericSetElement {}
extension Int64: DynamoNumericSetElement {}
extension Int32: DynamoNumericSetElement {}
extension UInt: DynamoNumericSetElement {}
extension UInt64: DynamoNumericSetElement {}
extension Double: DynamoNumericSetElement {}
