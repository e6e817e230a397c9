import DynamoAPI

/// A component of a vector attribute: `Float` (a `[Float]` property is ``AttributeType/floatVector``)
/// or `Double` (``AttributeType/doubleVector``).
///
/// A vector is stored as a DynamoDB list (`L`) of numbers (`N`), the form a vector index reads
/// (see ``EntityVectorIndex``). Each component is written as its shortest decimal text that
/// reads back as the same value, so a `Float` `0.1` is stored as `0.1`, not as the `Double`
/// nearest it.
///
/// ```swift
/// final class Note: ManagedObject {
///     @Attribute var id = UUID()
///     @Attribute var embedding: [Float] = []
/// }
/// ```
public protocol PersistentVectorComponent: BinaryFloatingPoint, LosslessStringConvertible, Sendable {
    /// The attribute type of an array of this component.
    static var vectorType: AttributeType { get }
}

extension Float: PersistentVectorComponent {
    public static var vectorType: AttributeType { .floatVector }
}

extension Double: PersistentVectorComponent {
    public static var vectorType: AttributeType { .doubleVector }
}

extension Array: PersistentValue where Element: PersistentVectorComponent {
    public static var attributeType: AttributeType { Element.vectorType }
    public static var placeholder: Self { [] }

    /// `L` of `N`, one number per component, in order (an empty array is an empty list).
    ///
    /// - Throws: ``StoreError/invalidValue(_:)`` for a NaN or infinite component, or one
    ///   beyond DynamoDB's number range.
    public func storedValue() throws(StoreError) -> AttributeValue? {
        var list: [AttributeValue] = []
        list.reserveCapacity(count)
        for (position, component) in enumerated() {
            guard component.isFinite else { throw .invalidValue("vector component \(position) is \(component)") }
            do { list.append(.n(try DynamoNumber(parsing: component.description))) } catch {
                throw .invalidValue("vector component \(position), \(component), cannot be stored as a DynamoDB number")
            }
        }
        return .l(list)
    }

    public init(storedValue: AttributeValue) throws(StoreError) {
        guard case .l(let list) = storedValue else { throw .mismatch(storedValue, "[\(Element.self)]") }
        var components: Self = []
        components.reserveCapacity(list.count)
        for element in list {
            guard case .n(let number) = element, let component = Element(number.description) else {
                throw .mismatch(storedValue, "[\(Element.self)]")
            }
            components.append(component)
        }
        self = components
    }
}
