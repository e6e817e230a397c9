import DynamoAPI

/// A request's expressions and legacy parameters, validated and compiled.
///
/// Each member is `nil` when the request had neither the expression nor its legacy counterpart.
public struct CompiledExpressions: Sendable {
    /// ConditionExpression or `Expected`: the write happens only if it holds for the stored item.
    public var condition: Predicate?
    /// UpdateExpression or `AttributeUpdates`.
    public var update: UpdatePlan?
    /// ProjectionExpression or `AttributesToGet`.
    public var projection: ProjectionPlan?
    /// FilterExpression, `QueryFilter` or `ScanFilter`.
    public var filter: Predicate?
    /// KeyConditionExpression or `KeyConditions`, to be bound to a key schema.
    public var keyCondition: KeyCondition?
    /// SearchConditionExpression (SearchVectors), resolved but not yet checked against the
    /// index's search schema.
    public var searchCondition: Predicate?
    /// The KeyConditionExpression as a predicate, before it is turned into ``keyCondition``.
    var keyConditionPredicate: Predicate?

    public init() {}

    /// Checks the expressions against the table's key attributes: an update may not write them,
    /// and a condition, filter or projection may not look inside them.
    ///
    /// - Throws: `ValidationException` "One or more parameter values were invalid: Cannot update
    ///   attribute pk. This attribute is part of the key", or "Key attributes must be scalars;
    ///   list random access '[]' and map lookup '.' are not allowed: Key: pk".
    ///
    /// `keys` is evaluated only when there is an expression to check.
    public func checkKeyAttributes(_ keys: @autoclosure () -> [String]) throws(DynamoError) {
        guard condition != nil || filter != nil || projection != nil || update != nil else { return }
        let keys = keys()
        func lookInside(_ path: DocumentPath) throws(DynamoError) {
            if path.elements.count > 1, keys.contains(path.attribute) { throw Self.scalarKey(path.attribute) }
        }
        try condition?.forEachPath(lookInside)
        try filter?.forEachPath(lookInside)
        for path in projection?.paths ?? [] { try lookInside(path) }
        for action in update?.actions ?? [] where keys.contains(action.path.attribute) {
            throw ExpressionMessages.keyAttributeUpdated(attribute: action.path.attribute)
        }
    }

    /// Checks a Query's filter against the key attributes of the table or index it reads: a
    /// filter may only look at non-key attributes (key attributes belong in the key condition).
    ///
    /// - Throws: `ValidationException` "Filter Expression can only contain non-primary key
    ///   attributes: Primary key attribute: pk".
    public func checkQueryFilter(keys: [String]) throws(DynamoError) {
        try filter?.forEachPath { (path) throws(DynamoError) in
            if keys.contains(path.attribute) {
                throw ExpressionMessages.keyAttributeInQueryFilter(attribute: path.attribute)
            }
        }
    }

    private static func scalarKey(_ name: String) -> DynamoError {
        ExpressionMessages.keyAttributeNotScalar(name: name)
    }
}

extension Predicate {
    /// Calls `body` with every document path the predicate reads, left to right as written
    /// (without building a list: every request with a condition or filter is checked).
    func forEachPath<E: Error>(_ body: (DocumentPath) throws(E) -> Void) throws(E) {
        switch self {
        case .and(let a, let b), .or(let a, let b):
            try a.forEachPath(body)
            try b.forEachPath(body)
        case .not(let a):
            try a.forEachPath(body)
        case .compare(_, let a, let b), .beginsWith(let a, let b), .contains(let a, let b):
            try a.forEachPath(body)
            try b.forEachPath(body)
        case .between(let a, let b, let c):
            try a.forEachPath(body)
            try b.forEachPath(body)
            try c.forEachPath(body)
        case .isIn(let a, let list):
            try a.forEachPath(body)
            for operand in list { try operand.forEachPath(body) }
        case .exists(let path), .notExists(let path):
            try body(path)
        case .hasType(let operand, _):
            try operand.forEachPath(body)
        }
    }
}

extension Operand {
    /// Calls `body` with every document path the operand reads, left to right as written.
    func forEachPath<E: Error>(_ body: (DocumentPath) throws(E) -> Void) throws(E) {
        switch self {
        case .path(let path):
            try body(path)
        case .value:
            break
        case .size(let inner):
            try inner.forEachPath(body)
        case .ifNotExists(let path, let inner):
            try body(path)
            try inner.forEachPath(body)
        case .listAppend(let a, let b), .add(let a, let b), .subtract(let a, let b):
            try a.forEachPath(body)
            try b.forEachPath(body)
        }
    }
}
