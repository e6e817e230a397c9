import DynamoAPI
@testable import DynamoExpressions
import Testing

/// `PlaceholderMap` against the plain definition it replaces (a set of the keys used, and the
/// map's keys filtered by it), on maps on both sides of its 64-entry bit limit.
@Suite struct PlaceholderMapTests {
    @Test(arguments: 0..<40)
    func unusedKeysAreTheMapsKeysLessThoseUsed(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // Sizes around the limit as well as the common small maps.
        let size = [0, 1, 3, 63, 64, 65, 130, Int.random(in: 0...130, using: &random)][Int(seed % 8)]
        let entries = Dictionary(uniqueKeysWithValues: (0..<size).map { ("#k\($0)", $0) })
        var map = PlaceholderMap(size == 0 && seed % 2 == 0 ? nil : entries)
        var used: Set<String> = []
        for _ in 0..<Int.random(in: 0...(2 * size + 2), using: &random) {
            let key = "#k\(Int.random(in: 0...(size + 3), using: &random))"
            #expect(map.contains(key) == (entries[key] != nil))
            #expect(map.use(key) == entries[key])
            if entries[key] != nil { used.insert(key) }
        }
        #expect(map.unusedKeys == entries.keys.filter { !used.contains($0) })
    }

    @Test func theUnusedCheckNamesTheOneLeftOutOfSeventyNames() throws {
        var input = ExpressionInput(.putItem)
        let names = Dictionary(uniqueKeysWithValues: (0..<70).map { ("#n\($0)", "a\($0)") })
        input.names = names
        input.conditionExpression = (0..<70).filter { $0 != 41 }.map { "attribute_exists(#n\($0))" }
            .joined(separator: " AND ")
        let error = #expect(throws: DynamoError.self) { try ExpressionCompiler.compile(input) }
        #expect(error?.message == "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n41}")
        input.conditionExpression! += " AND attribute_exists(#n41)"
        #expect(try ExpressionCompiler.compile(input).condition != nil)
    }
}
