/// Why a byte sequence is not a JSON document, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset of the problem in the input.
    public var offset: Int
    /// What was wrong.
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at byte \(offset)" }
}
