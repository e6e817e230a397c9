import Testing
@testable import DynamoAPI

/// `ItemSize.checkNamesAndNesting`: an empty attribute name and nesting past the limit, in
/// DynamoDB's order (paritysuite's deepRequests test, captured in ten regions on 2026-10-09).
@Suite struct ItemNamesTests {
    static func deep(_ depth: Int) -> AttributeValue {
        (0..<depth).reduce(AttributeValue.s("leaf")) { value, _ in .m(["n": value]) }
    }

    static let emptyName = DynamoError.validation("Empty attribute name")

    @Test("an item's own empty name comes before its nesting; a map's empty key after it")
    func order() {
        #expect(throws: Self.emptyName) { try ItemSize.checkNamesAndNesting(["pk": .s("a"), "": .s("x"), "d": Self.deep(40)]) }
        #expect(throws: AttributeValueMessages.nestingLevelsHaveExceededSupported) {
            try ItemSize.checkNamesAndNesting(["pk": .s("a"), "m": .m(["": .s("x")]), "d": Self.deep(40)])
        }
        #expect(throws: Self.emptyName) { try ItemSize.checkNamesAndNesting(["pk": .s("a"), "l": .l([.m(["": .null])])]) }
        #expect(throws: Never.self) { try ItemSize.checkNamesAndNesting(["pk": .s("a"), "d": Self.deep(31), "e": .s("")]) }
    }
}
