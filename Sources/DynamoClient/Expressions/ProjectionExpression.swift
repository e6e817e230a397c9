/// A typed `ProjectionExpression`: the attributes (or nested paths) a read returns.
///
/// ```swift
/// let projection: ProjectionExpression = ["id", "status", "address.city", "tags[0]"]
/// // #n0, #n1, #n2.#n3, #n4[0]
/// ```
///
/// Rendering rejects an empty projection and overlapping paths (`a` and `a.b`), as DynamoDB does.
public struct ProjectionExpression: Sendable, ExpressibleByArrayLiteral {
    /// The paths, in order.
    public var paths: [AttributePath]

    /// A projection of these paths.
    public init(_ paths: [AttributePath]) { self.paths = paths }
    /// A projection of these paths.
    public init(arrayLiteral paths: AttributePath...) { self.paths = paths }

    /// The expression text, its names added to `renderer`.
    func render(_ renderer: inout ExpressionRenderer) throws(ExpressionBuildError) -> String {
        guard !paths.isEmpty else { throw ExpressionBuildError("a projection expression needs at least one path") }
        try AttributePath.checkDisjoint(paths, in: "a projection expression")
        var parts: [String] = []
        for path in paths { parts.append(try renderer.path(path)) }
        return try ExpressionRenderer.checkLength(parts.joined(separator: ", "), kind: "ProjectionExpression")
    }
}
