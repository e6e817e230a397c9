import DynamoAPI

/// A document path in an expression: an attribute name followed by map keys and list indexes,
/// such as `a.b[2].c`.
///
/// A string literal (interpolated or not) is read as a path (`"a.b[2].c"` is the attribute `a`, its key `b`, the
/// list element 2, its key `c`); ``name(_:)`` takes a name literally, dots and brackets
/// included. Every name is sent through an `ExpressionAttributeNames` placeholder, so reserved
/// words (`status`, `name`, `size` …) and any characters are safe.
///
/// ```swift
/// let path: AttributePath = "address.lines[0]"
/// let literal = AttributePath.name("first.last")      // one attribute named `first.last`
/// let nested = AttributePath.name("tags")[3]["label"]  // tags[3].label
/// ```
public struct AttributePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// One step of a path.
    public enum Element: Sendable, Hashable {
        /// An attribute name or a map key.
        case name(String)
        /// A list index.
        case index(Int)
    }

    /// The steps, the first always a name.
    public private(set) var elements: [Element]
    /// Why the text given to ``init(_:)`` is not a path (reported when the expression is rendered).
    let problem: String?

    /// Parses `text` as a path: names separated by `.`, list indexes in `[n]`.
    ///
    /// - Parameter text: The path, e.g. `a.b[2].c`. Text that is not a path is reported as an
    ///   ``ExpressionBuildError`` when the expression using it is rendered.
    public init(_ text: String) {
        var elements: [Element] = []
        var problem: String?
        var name = ""
        var index: String?
        var afterIndex = false
        func fail(_ reason: String) { if problem == nil { problem = "invalid attribute path \"\(text)\": \(reason)" } }
        for character in text {
            if var digits = index {
                if character == "]" {
                    if let value = Int(digits), value >= 0 {
                        elements.append(.index(value))
                    } else {
                        fail("a list index must be a non-negative integer")
                    }
                    index = nil
                    afterIndex = true
                } else {
                    digits.append(character)
                    index = digits
                }
                continue
            }
            switch character {
            case ".":
                if !afterIndex {
                    if name.isEmpty { fail("empty name") }
                    elements.append(.name(name))
                }
                name = ""
                afterIndex = false
            case "[":
                if !afterIndex {
                    if name.isEmpty { fail("a list index must follow a name") }
                    elements.append(.name(name))
                }
                name = ""
                index = ""
            default:
                if afterIndex { fail("expected . or [ after ]") }
                name.append(character)
            }
        }
        if index != nil { fail("unclosed [") }
        if !afterIndex {
            if name.isEmpty { fail("empty name") }
            elements.append(.name(name))
        }
        self.elements = elements.isEmpty ? [.name(text)] : elements
        self.problem = problem
    }

    /// Parses a string literal as a path (see ``init(_:)``).
    public init(stringLiteral value: String) { self.init(value) }

    private init(elements: [Element]) {
        self.elements = elements
        problem = nil
    }

    /// A path of one attribute whose name is taken literally (dots and brackets included).
    ///
    /// - Parameter attribute: The attribute's name.
    public static func name(_ attribute: String) -> AttributePath { AttributePath(elements: [.name(attribute)]) }

    /// The path to a key of the map at this path.
    public subscript(key: String) -> AttributePath { AttributePath(elements: elements + [.name(key)], problem: problem) }

    /// The path to an element of the list at this path.
    public subscript(index: Int) -> AttributePath { AttributePath(elements: elements + [.index(index)], problem: problem) }

    private init(elements: [Element], problem: String?) {
        self.elements = elements
        self.problem = problem
    }

    /// The path as it reads, e.g. `a.b[2].c` (names are not escaped).
    public var description: String {
        var text = ""
        for element in elements {
            switch element {
            case .name(let name): text += text.isEmpty ? name : ".\(name)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// Whether one path is the other or leads into it (`a` and `a.b`, `a[1]` and `a[1].c`).
    func overlaps(_ other: AttributePath) -> Bool {
        let shorter = min(elements.count, other.elements.count)
        return Array(elements.prefix(shorter)) == Array(other.elements.prefix(shorter))
    }
}
