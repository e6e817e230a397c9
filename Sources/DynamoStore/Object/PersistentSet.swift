import DynamoAPI
import Foundation

/// An element of a set attribute: `String` (stored as `SS`), `Int` (`NS`) or `Data` (`BS`).
///
/// DynamoDB has no empty sets: an empty set is stored as an absent attribute and an absent
/// attribute reads as the empty set, so a set attribute is never "required".
public protocol PersistentSetElement: Hashable, PersistentValue {
    /// The attribute type of a set of this element.
    static var setType: AttributeType { get }
}

extension String: PersistentSetElement {
    public static var setType: AttributeType { .stringSet }
}

extension Int: PersistentSetElement {
    public static var setType: AttributeType { .numberSet }
}

extension Data: PersistentSetElement {
    public static var setType: AttributeType { .dataSet }
}

extension Set: PersistentValue where Element: PersistentSetElement {
    public static var attributeType: AttributeType { Element.setType }
    public static var placeholder: Self { [] }

    /// `SS`/`NS`/`BS` of the elements (sorted, so equal sets store equally); `nil` when empty.
    public func storedValue() throws(StoreError) -> AttributeValue? {
        guard !isEmpty else { return nil }
        var strings: [String] = [], numbers: [DynamoNumber] = [], binaries: [[UInt8]] = []
        for element in self {
            switch try element.storedValue() {
            case .s(let text)?: strings.append(text)
            case .n(let number)?: numbers.append(number)
            case .b(let bytes)?: binaries.append(bytes)
            default: throw .invalidValue("\(element) cannot be an element of a DynamoDB set")
            }
        }
        switch Element.setType {
        case .numberSet: return .ns(numbers.sorted())
        case .dataSet: return .bs(binaries.sorted { $0.lexicographicallyPrecedes($1) })
        default: return .ss(strings.sorted())
        }
    }

    public init(storedValue: AttributeValue) throws(StoreError) {
        let elements: [AttributeValue] =
            switch (storedValue, Element.setType) {
            case (.ss(let values), .stringSet): values.map { .s($0) }
            case (.ns(let values), .numberSet): values.map { .n($0) }
            case (.bs(let values), .dataSet): values.map { .b($0) }
            default: throw .mismatch(storedValue, "Set<\(Element.self)>")
            }
        var result: Self = []
        for element in elements { result.insert(try Element(storedValue: element)) }
        self = result
    }
}
