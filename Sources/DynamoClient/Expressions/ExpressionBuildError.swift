/// An expression the builder refuses to render because DynamoDB would reject it (an empty `IN`
/// list, two update actions on overlapping paths, a key condition DynamoDB cannot use …), or
/// one that cannot be merged into a request (a raw expression of the same kind is already set).
///
/// The message names the rule and the offending part, e.g.
/// `IN takes at most 100 values; got 101 for status`.
public struct ExpressionBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
