@testable import DynamoPartiQL
import Testing

/// Token positions (`line:column`, in characters) of seeded random statements: words, strings
/// with multi-byte characters, newlines and comments, each token's position checked against a
/// count from the statement's start.
@Suite struct PartiQLLexerSpanTests {
    /// A small seeded generator (the target has no test-support dependency).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static let fragments = [
        "SELECT", "*", "FROM", "\"Tàble\"", "WHERE", "pk", "=", "'é日本'", "AND", "x", "<", "1.5", "?", ",", "[", "]",
        "\n", "  ", "-- a comment é\n", "/* two\nlines 日 */", "{", "'k'", ":", "}",
    ]

    @Test(arguments: 1...8)
    func positionsCountCharactersFromTheLineStart(seed: UInt64) throws {
        var random = Generator(state: seed)
        let text = (0..<Int.random(in: 50...400, using: &random)).map { _ in Self.fragments.randomElement(using: &random)! }
            .joined(separator: " ")
        let bytes = Array(text.utf8)
        for token in try PartiQLLexer.tokenize(text) where token.kind != .end {
            let before = bytes[..<token.offset]
            let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            let column = bytes[lineStart..<token.offset].filter { $0 & 0xC0 != 0x80 }.count + 1
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            #expect(token.span == PartiQLSpan(line: line, column: column, length: token.span.length), "\(text)")
        }
    }
}
