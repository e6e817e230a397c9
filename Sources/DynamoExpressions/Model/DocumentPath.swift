/// One step of a document path: a map key (or top-level attribute name) or a list index.
public enum PathElement: Hashable, Sendable, CustomStringConvertible {
    case attribute(String)
    case index(Int)

    /// `name` for a key, `[2]` for an index, as DynamoDB prints paths in its messages.
    public var description: String {
        switch self {
        case .attribute(let name): name
        case .index(let index): "[\(index)]"
        }
    }

    /// Whether the step is a list index.
    var isIndex: Bool {
        if case .index = self { return true }
        return false
    }
}

/// A resolved document path such as `a.b[2].c`: placeholders replaced by the names they stand for.
///
/// ```swift
/// let path = DocumentPath([.attribute("a"), .index(2)])
/// print(path)   // [a, [2]]
/// ```
public struct DocumentPath: Hashable, Sendable, CustomStringConvertible {
    /// The steps, top-level attribute first. Never empty.
    public var elements: [PathElement]

    /// A path of the given steps; the first must be an attribute name.
    public init(_ elements: [PathElement]) {
        self.elements = elements
    }

    /// The path of a top-level attribute.
    public init(attribute name: String) {
        self.elements = [.attribute(name)]
    }

    /// The top-level attribute the path starts at.
    public var attribute: String {
        if case .attribute(let name) = elements[0] { return name }
        return ""
    }

    /// The path as DynamoDB prints it in messages: `[a, b, [2]]`.
    public var description: String {
        "[" + elements.map(\.description).joined(separator: ", ") + "]"
    }
}
