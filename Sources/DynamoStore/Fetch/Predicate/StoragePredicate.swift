import DynamoAPI
import DynamoExpressions
import Foundation

/// A fetch predicate resolved against an entity: DynamoDB attribute names (storage names) and
/// DynamoDB values, ready to become key conditions and filter expressions. Constants are
/// folded away except at the top (a predicate that is always false needs no request).
indirect enum StoragePredicate: Sendable, Hashable {
    case constant(Bool)
    case compare(String, PredicateOperator, AttributeValue)
    case exists(String)
    case notExists(String)
    case between(String, AttributeValue, AttributeValue)
    case isIn(String, [AttributeValue])
    case beginsWith(String, AttributeValue)
    case contains(String, AttributeValue)
    case and([StoragePredicate])
    case or([StoragePredicate])
    case not(StoragePredicate)

    /// `a AND b AND …`, with constants folded and nested ANDs flattened.
    static func all(_ parts: [StoragePredicate]) -> StoragePredicate {
        fold(parts, identity: true, combine: StoragePredicate.and) { if case .and(let inner) = $0 { inner } else { nil } }
    }

    /// `a OR b OR …`, with constants folded and nested ORs flattened.
    static func any(_ parts: [StoragePredicate]) -> StoragePredicate {
        fold(parts, identity: false, combine: StoragePredicate.or) { if case .or(let inner) = $0 { inner } else { nil } }
    }

    /// Combines parts with AND (`identity` true) or OR (`identity` false): the identity constant
    /// drops out, its opposite decides the whole, nested parts of the same kind are flattened.
    private static func fold(
        _ parts: [StoragePredicate], identity: Bool, combine: ([StoragePredicate]) -> StoragePredicate,
        nested: (StoragePredicate) -> [StoragePredicate]?
    ) -> StoragePredicate {
        var flat: [StoragePredicate] = []
        for part in parts {
            if case .constant(let value) = part {
                if value == identity { continue }
                return part
            }
            flat += nested(part) ?? [part]
        }
        return flat.isEmpty ? .constant(identity) : flat.count == 1 ? flat[0] : combine(flat)
    }

    /// `NOT p`, folding constants and double negation.
    static func negation(_ inner: StoragePredicate) -> StoragePredicate {
        switch inner {
        case .constant(let value): .constant(!value)
        case .not(let again): again
        default: .not(inner)
        }
    }

    /// The top-level conjuncts (the predicate itself when it is not an AND).
    var conjuncts: [StoragePredicate] {
        switch self {
        case .and(let parts): parts
        case .constant(true): []
        default: [self]
        }
    }

    /// The attribute names the predicate reads.
    var attributeNames: Set<String> {
        switch self {
        case .constant: []
        case .compare(let name, _, _), .exists(let name), .notExists(let name), .between(let name, _, _),
             .isIn(let name, _), .beginsWith(let name, _), .contains(let name, _): [name]
        case .and(let parts), .or(let parts): parts.reduce(into: []) { $0.formUnion($1.attributeNames) }
        case .not(let inner): inner.attributeNames
        }
    }

    /// The expression with attribute names and values written out, for explanations.
    var readable: String {
        if case .constant(let value) = self { return value ? "true" : "false" }
        var builder = ExpressionBuilder()
        var text = builder.render(self)
        for (placeholder, name) in builder.names.sorted(by: { $0.key.count > $1.key.count || ($0.key.count == $1.key.count && $0.key > $1.key) }) {
            text = text.replacingOccurrences(of: placeholder, with: name)
        }
        for (placeholder, value) in builder.values.sorted(by: { $0.key.count > $1.key.count || ($0.key.count == $1.key.count && $0.key > $1.key) }) {
            text = text.replacingOccurrences(of: placeholder, with: value.description)
        }
        return text
    }

    /// A test of items against the predicate, evaluated by DynamoExpressions from the same
    /// FilterExpression the server would get, so memory and server agree.
    func matcher() throws(FetchPredicateError) -> @Sendable (Item) -> Bool {
        guard let compiled = try compiled() else { return { _ in true } }
        return { compiled.evaluate($0) }
    }

    /// The predicate compiled by DynamoExpressions (`nil` for "always true"); `constant(false)`
    /// compiles to a predicate nothing satisfies.
    func compiled() throws(FetchPredicateError) -> DynamoExpressions.Predicate? {
        switch self {
        case .constant(true): return nil
        case .constant(false):
            return .and(.exists(DocumentPath(attribute: "a")), .notExists(DocumentPath(attribute: "a")))
        default:
            var builder = ExpressionBuilder()
            var input = ExpressionInput(.scan)
            input.filterExpression = builder.render(self)
            input.names = builder.names
            input.values = builder.values.isEmpty ? nil : builder.values
            do {
                return try ExpressionCompiler.compile(input).filter
            } catch {
                throw FetchPredicateError("the predicate does not compile as a DynamoDB expression: \(error.message ?? "\(error)")")
            }
        }
    }
}

/// Renders storage predicates as DynamoDB expression text with `#n0` name and `:v0` value
/// placeholders, collecting the placeholders it used (DynamoDB rejects unused ones, so each
/// expression of a request that shares a builder adds only what it names).
struct ExpressionBuilder {
    /// `#nN` → attribute name.
    private(set) var names: [String: String] = [:]
    /// `:vN` → value.
    private(set) var values: [String: AttributeValue] = [:]
    private var placeholders: [String: String] = [:]
    private let namePrefix: String

    /// A builder whose name placeholders start with `namePrefix` (`#n` by default), so two
    /// builders of one request do not collide.
    init(namePrefix: String = "#n") {
        self.namePrefix = namePrefix
    }

    /// The placeholder for an attribute name (one per name).
    mutating func name(_ attribute: String) -> String {
        if let existing = placeholders[attribute] { return existing }
        let placeholder = "\(namePrefix)\(placeholders.count)"
        placeholders[attribute] = placeholder
        names[placeholder] = attribute
        return placeholder
    }

    /// A new placeholder for a value.
    mutating func value(_ value: AttributeValue) -> String {
        let placeholder = ":v\(values.count)"
        values[placeholder] = value
        return placeholder
    }

    /// A ProjectionExpression naming these attributes.
    mutating func projection(_ attributes: [String]) -> String {
        attributes.map { name($0) }.joined(separator: ", ")
    }

    /// The expression text of a predicate (not a constant).
    mutating func render(_ predicate: StoragePredicate) -> String {
        switch predicate {
        case .constant(let value):
            preconditionFailure("constant \(value) reached rendering; constants are folded before")
        case .compare(let attribute, let op, let operand):
            let symbol = op == .equal ? "=" : op == .notEqual ? "<>" : op.rawValue
            return "\(name(attribute)) \(symbol) \(value(operand))"
        case .exists(let attribute):
            return "attribute_exists(\(name(attribute)))"
        case .notExists(let attribute):
            return "attribute_not_exists(\(name(attribute)))"
        case .between(let attribute, let low, let high):
            return "\(name(attribute)) BETWEEN \(value(low)) AND \(value(high))"
        case .isIn(let attribute, let list):
            let path = name(attribute)
            return "\(path) IN (" + list.map { value($0) }.joined(separator: ", ") + ")"
        case .beginsWith(let attribute, let prefix):
            return "begins_with(\(name(attribute)), \(value(prefix)))"
        case .contains(let attribute, let part):
            return "contains(\(name(attribute)), \(value(part)))"
        case .and(let parts):
            return parts.map { "(\(render($0)))" }.joined(separator: " AND ")
        case .or(let parts):
            return parts.map { "(\(render($0)))" }.joined(separator: " OR ")
        case .not(let inner):
            return "NOT (\(render(inner)))"
        }
    }
}
