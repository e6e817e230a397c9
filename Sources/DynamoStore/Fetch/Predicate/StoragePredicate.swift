import DynamoAPI
import DynamoClient
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
            .isIn(let name, _), .beginsWith(let name, _), .contains(let name, _):
            [name]
        case .and(let parts), .or(let parts): parts.reduce(into: []) { $0.formUnion($1.attributeNames) }
        case .not(let inner): inner.attributeNames
        }
    }

    /// The expression with attribute names and values written out, for explanations.
    var readable: String {
        if case .constant(let value) = self { return value ? "true" : "false" }
        guard let rendered = try? condition.rendered(), var text = rendered.condition else { return "\(self)" }
        let longestFirst: ((key: String, value: String), (key: String, value: String)) -> Bool = {
            $0.key.count > $1.key.count || ($0.key.count == $1.key.count && $0.key > $1.key)
        }
        for (placeholder, name) in rendered.names.sorted(by: longestFirst) {
            text = text.replacingOccurrences(of: placeholder, with: name)
        }
        for (placeholder, value) in rendered.values.mapValues(\.description).sorted(by: longestFirst) {
            text = text.replacingOccurrences(of: placeholder, with: value)
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
    /// compiles to a predicate nothing satisfies. The text is DynamoClient's typed builder's,
    /// so what it refuses (DynamoDB's limits) is refused here, before any request.
    func compiled() throws(FetchPredicateError) -> DynamoExpressions.Predicate? {
        switch self {
        case .constant(true): return nil
        case .constant(false):
            return .and(.exists(DocumentPath(attribute: "a")), .notExists(DocumentPath(attribute: "a")))
        default:
            let rendered: RenderedExpressions
            do {
                rendered = try Expressions(filter: condition).rendered()
            } catch {
                throw FetchPredicateError("the predicate is not a valid DynamoDB expression: \(error.message)")
            }
            var input = ExpressionInput(.scan)
            input.filterExpression = rendered.filter
            input.names = rendered.names
            input.values = rendered.values.isEmpty ? nil : rendered.values
            do {
                return try ExpressionCompiler.compile(input).filter
            } catch {
                throw FetchPredicateError("the predicate does not compile as a DynamoDB expression: \(error.message ?? "\(error)")")
            }
        }
    }

    /// The predicate as a typed condition of DynamoClient's builder (storage names taken
    /// literally). A constant, which planning folds away before, becomes a condition that
    /// always or never holds.
    var condition: ConditionExpression {
        typealias C = ConditionExpression
        switch self {
        case .constant(let value):
            let never = C.attributeExists(.name("a")) && .attributeNotExists(.name("a"))
            return value ? !never : never
        case .compare(let attribute, let op, let operand):
            let (path, value) = (C.attribute(.name(attribute)), C.value(operand))
            switch op {
            case .equal: return path == value
            case .notEqual: return path != value
            case .less: return path < value
            case .lessOrEqual: return path <= value
            case .greater: return path > value
            case .greaterOrEqual: return path >= value
            }
        case .exists(let attribute): return .attributeExists(.name(attribute))
        case .notExists(let attribute): return .attributeNotExists(.name(attribute))
        case .between(let attribute, let low, let high): return C.attribute(.name(attribute)).between(.value(low), .value(high))
        case .isIn(let attribute, let list): return C.attribute(.name(attribute)).in(list.map { .value($0) })
        case .beginsWith(let attribute, let prefix): return .beginsWith(.name(attribute), .value(prefix))
        case .contains(let attribute, let part): return .contains(.name(attribute), .value(part))
        case .and(let parts): return C.all(parts.map(\.condition)) ?? StoragePredicate.constant(true).condition
        case .or(let parts): return C.any(parts.map(\.condition)) ?? StoragePredicate.constant(false).condition
        case .not(let inner): return !inner.condition
        }
    }
}
