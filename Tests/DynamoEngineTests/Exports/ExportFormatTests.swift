import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// The file formats of exports and imports: Ion text, gzip, MD5, CSV.
@Suite struct ExportFormatTests {
    static func randomValue(_ random: inout PointInTimeRestoreTests.SeededRandom, depth: Int = 0) -> AttributeValue {
        let strings = ["", "a", "b c", "quote \" and \\", "line\nbreak", "é😀", "'single'", "tab\t\u{1}"]
        let numbers = ["0", "1", "-1.5", "1E+40", "-3.25E-10", "123456789012345678901234567890", "0.001"]
        switch Int.random(in: 0..<(depth > 2 ? 7 : 10), using: &random) {
        case 0: return .s(strings.randomElement(using: &random)!)
        case 1: return .n(try! DynamoNumber(parsing: numbers.randomElement(using: &random)!))
        case 2: return .b((0..<Int.random(in: 1..<6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .ss(Array(Set(strings.filter { !$0.isEmpty }.prefix(Int.random(in: 1...4, using: &random)))))
        case 6: return .ns(Array(Set(numbers.prefix(Int.random(in: 1...5, using: &random)))).map { try! DynamoNumber(parsing: $0) })
        case 7: return .l((0..<Int.random(in: 0..<4, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        case 8: return .bs([[1, 2], [0], [255]])
        default:
            var map: [String: AttributeValue] = [:]
            for index in 0..<Int.random(in: 0..<4, using: &random) {
                map[["name", "with space", "null", "$odd", "x\(index)"].randomElement(using: &random)!] =
                    randomValue(&random, depth: depth + 1)
            }
            return .m(map)
        }
    }

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func ionRoundTripsRandomItems(seed: UInt64) throws {
        var random = PointInTimeRestoreTests.SeededRandom(state: seed)
        var text = IonText.versionMarker + "\n"
        var items: [Item] = []
        for _ in 0..<50 {
            var item: Item = ["pk": .s("k")]
            for index in 0..<Int.random(in: 1..<6, using: &random) { item["a\(index)"] = Self.randomValue(&random) }
            items.append(item)
            text += "{Item:"
            IonText.writeStruct(item, to: &text)
            text += "}\n"
        }
        let parsed = ImportParsers.ion(Array(text.utf8))
        #expect(parsed.count == items.count)
        for (entry, item) in zip(parsed, items) {
            #expect(try entry.result.get() == item, "seed \(seed)")
        }
    }

    @Test func gzipAndMD5() throws {
        let bytes = Array((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        #expect(try Gzip.decompress(Gzip.compress(bytes)) == bytes)
        #expect(try Gzip.decompress(Gzip.compress([]) + Gzip.compress([1, 2])) == [1, 2])
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress([1, 2, 3, 4]) }
        #expect(MD5.hex([]) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex(Array(String(repeating: "a", count: 1000).utf8)) == "cabe45dcc9ae5b66ba86600cca6b8ba8")
    }

    @Test func csvRowsFollowRFC4180() {
        let rows = ImportParsers.csvRows(
            Array("a,\"b,c\",\"d \"\"q\"\"\"\r\n\"multi\nline\",x,\n".utf8),
            delimiter: UInt8(ascii: ","))
        #expect(rows.map(\.fields) == [["a", "b,c", "d \"q\""], ["multi\nline", "x", ""]])
        #expect(rows.map(\.line) == [1, 2])
    }

    @Test func badDynamoJSONLinesAreReportedWithTheirNumbers() {
        let parsed = ImportParsers.dynamoJSON(Array("{\"Item\":{\"pk\":{\"S\":\"a\"}}}\nnot json\n\n{\"Other\":1}\n".utf8))
        #expect(parsed.map(\.line) == [1, 2, 4])
        #expect((try? parsed[0].result.get()) == ["pk": .s("a")])
        #expect((try? parsed[1].result.get()) == nil)
        #expect((try? parsed[2].result.get()) == nil)
    }
}
