import DynamoAPI

/// Turns builder expressions into DynamoDB expression text, assigning `#nN` placeholders to
/// names and `:vN` placeholders to values in the order they first appear. Equal names and
/// equal values share one placeholder, so the same expressions always render the same text and
/// maps, and every placeholder in the maps is used.
struct ExpressionRenderer {
    /// DynamoDB's limits that the builder checks before sending.
    enum Limits {
        /// Nesting levels of a document path.
        static let pathDepth = 32
        /// Bytes of one expression string.
        static let expressionBytes = 4096
        /// Operands of one `IN`.
        static let inOperands = 100
        /// Operators and functions in one condition expression.
        static let operators = 300
    }

    /// Placeholder → attribute name.
    private(set) var names: [String: String] = [:]
    /// Placeholder → value.
    private(set) var values: [String: AttributeValue] = [:]
    private var namePlaceholders: [String: String] = [:]
    private var valuePlaceholders: [AttributeValue: String] = [:]
    /// Placeholders the request already uses (raw expressions beside the builder's).
    private let taken: Set<String>
    private var nextName = 0
    private var nextValue = 0

    /// A renderer whose placeholders avoid `taken`.
    init(avoiding taken: Set<String> = []) { self.taken = taken }

    /// The placeholder of an attribute name or map key.
    mutating func name(_ name: String) -> String {
        if let existing = namePlaceholders[name] { return existing }
        let placeholder = next("#n", &nextName)
        namePlaceholders[name] = placeholder
        names[placeholder] = name
        return placeholder
    }

    /// The placeholder of a value, after checking DynamoDB accepts it.
    mutating func value(_ value: AttributeValue) throws(ExpressionBuildError) -> String {
        if let existing = valuePlaceholders[value] { return existing }
        try Self.check(value)
        let placeholder = next(":v", &nextValue)
        valuePlaceholders[value] = placeholder
        values[placeholder] = value
        return placeholder
    }

    /// The next placeholder `prefix` + number that the request does not use yet.
    private func next(_ prefix: String, _ counter: inout Int) -> String {
        var placeholder: String
        repeat {
            placeholder = "\(prefix)\(counter)"
            counter += 1
        } while taken.contains(placeholder)
        return placeholder
    }

    /// The text of a document path: every name a placeholder, indexes as `[n]`.
    mutating func path(_ path: AttributePath) throws(ExpressionBuildError) -> String {
        if let problem = path.problem { throw ExpressionBuildError(problem) }
        guard path.elements.count <= Limits.pathDepth else {
            throw ExpressionBuildError("the document path \(path) has \(path.elements.count) nesting levels; DynamoDB allows \(Limits.pathDepth)")
        }
        var text = ""
        for element in path.elements {
            switch element {
            case .name(let attribute):
                if attribute.isEmpty { throw ExpressionBuildError("an attribute name in \(path) is empty") }
                text += text.isEmpty ? name(attribute) : ".\(name(attribute))"
            case .index(let index):
                guard index >= 0 else { throw ExpressionBuildError("the list index \(index) in \(path) is negative") }
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The text of a condition operand.
    mutating func operand(_ operand: ExpressionOperand) throws(ExpressionBuildError) -> String {
        switch operand.kind {
        case .path(let path): try self.path(path)
        case .value(let value): try self.value(value)
        case .size(let path): "size(\(try self.path(path)))"
        }
    }

    /// Checks an expression string against DynamoDB's size limit.
    static func checkLength(_ text: String, kind: String) throws(ExpressionBuildError) -> String {
        guard text.utf8.count <= Limits.expressionBytes else {
            throw ExpressionBuildError("the \(kind) is \(text.utf8.count) bytes; DynamoDB allows \(Limits.expressionBytes)")
        }
        return text
    }

    /// Rejects values DynamoDB rejects anywhere: empty sets and sets with duplicates, at any depth.
    static func check(_ value: AttributeValue) throws(ExpressionBuildError) {
        func checkSet<Element: Hashable>(_ elements: [Element], _ type: String) throws(ExpressionBuildError) {
            guard !elements.isEmpty else { throw ExpressionBuildError("a \(type) value may not be empty") }
            guard Set(elements).count == elements.count else {
                throw ExpressionBuildError("a \(type) value may not contain duplicates: \(value)")
            }
        }
        switch value {
        case .ss(let elements): try checkSet(elements, "SS")
        case .ns(let elements): try checkSet(elements, "NS")
        case .bs(let elements): try checkSet(elements, "BS")
        case .l(let elements): for element in elements { try check(element) }
        case .m(let members): for member in members.values { try check(member) }
        case .s, .n, .b, .null, .bool: break
        }
    }
}
