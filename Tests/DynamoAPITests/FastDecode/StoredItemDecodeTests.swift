import DynamoAPI
import Testing

@Suite("Item decode from bytes")
struct StoredItemDecodeTests {
    /// The generic path's answer: the item, or `nil` for any error.
    static func generic(_ bytes: [UInt8]) -> Item? {
        guard let json = try? JSONValue(parsing: bytes) else { return nil }
        return try? AttributeValue.decodeItem(json)
    }

    static func exactBytes(_ item: Item) -> [UInt8] {
        var writer = JSONWriter()
        AttributeValue.encode(item: item, to: &writer)
        return Array(((try? JSONValue(parsing: writer.bytes)) ?? .null).serialized.utf8)
    }

    @Test("gives exactly the generic decode's item, or fails where it fails, for random items", arguments: [0.0, 0.05, 0.3])
    func matchesGenericDecode(faultRate: Double) {
        var decoded = 0
        for seed in UInt64(1)...3000 {
            var generator = RequestBodyGenerator(
                random: SplitMix64(seed: seed &* 65_537 &+ UInt64(faultRate * 100)), faultRate: faultRate)
            var bodies = [Array(generator.attributeMap().utf8)]
            if faultRate > 0 { bodies.append(generator.damage(bodies[0])) }
            for body in bodies {
                let expected = Self.generic(body)
                let item = try? AttributeValue.decodeItem(bytes: body)
                let text = String(decoding: body, as: UTF8.self)
                #expect((item == nil) == (expected == nil), "seed \(seed): \(text)")
                guard let item, let expected else { continue }
                decoded += 1
                #expect(item == expected, "seed \(seed): \(text)")
                #expect(Self.exactBytes(item) == Self.exactBytes(expected), "seed \(seed): \(text)")
            }
        }
        // Without faults nearly every item decodes (a set may still repeat a value, `1` and
        // `1e0`); with them, a part does.
        #expect(decoded > (faultRate == 0 ? 2500 : 500))
    }

    @Test("reads an item as the engine stores it, and the forms only the generic path reads")
    func storedAndUnusualForms() throws {
        let item: Item = [
            "pk": .s("p00000001"), "sk": .n(try DynamoNumber(parsing: "3")), "data": .s("abc\u{e9}\"\\"),
            "tags": .ss(["a", "b"]), "nested": .m(["l": .l([.bool(true), .null, .b([1, 2, 3])])]),
        ]
        var writer = JSONWriter()
        AttributeValue.encode(item: item, to: &writer)
        #expect(try AttributeValue.decodeItem(bytes: writer.bytes) == item)
        // A `null` member is skipped and a repeated name keeps the last, as the generic path does.
        #expect(try AttributeValue.decodeItem(bytes: Array(#"{"a":null,"b":{"S":"x"}}"#.utf8)) == ["b": .s("x")])
        #expect(
            try AttributeValue.decodeItem(bytes: Array(#"{"a":{"S":"x"},"a":{"S":"y"}}"#.utf8))
                == Self.generic(Array(#"{"a":{"S":"x"},"a":{"S":"y"}}"#.utf8)))
        #expect(throws: (any Error).self) { try AttributeValue.decodeItem(bytes: Array(#"{"a":{"S":"x"}} x"#.utf8)) }
        #expect(throws: (any Error).self) { try AttributeValue.decodeItem(bytes: Array(#"[]"#.utf8)) }
    }
}
