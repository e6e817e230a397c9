/// A predicate or fetch request that cannot be built: a syntax error in the format string, a
/// property the entity does not have, a value of the wrong type, or a construct DynamoDB cannot
/// evaluate. The message says what and why.
///
/// ```swift
/// do { _ = try FetchPredicate("name ENDSWITH %@", "x") }
/// catch { print(error) }
/// // ENDSWITH is not supported: DynamoDB expressions can test a prefix (begins_with) but not a suffix
/// ```
public struct FetchPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The explanation.
    public var message: String

    /// Makes an error with this message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
