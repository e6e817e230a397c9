import DynamoAPI
import DynamoTestSupport

/// Random items of many attributes, and their wire JSON written in a random but equivalent way:
/// members and set elements in any order, numbers in any spelling of the same value.
enum RandomValues {
    static func item(key: String, using random: inout SeededRandom) -> Item {
        var item: Item = ["pk": .s(key)]
        for index in 0..<Int.random(in: 20...40, using: &random) {
            item["a\(index)"] = value(depth: 0, using: &random)
        }
        return item
    }

    static func value(depth: Int, using random: inout SeededRandom) -> AttributeValue {
        let kinds = depth < 2 ? 10 : 8
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .s("s\(Int.random(in: 0..<1000, using: &random))")
        case 1: return .n(DynamoNumber(Int.random(in: -1000...1000, using: &random)))
        case 2: return .b((0..<Int.random(in: 1...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 3: return .ss((0..<Int.random(in: 1...8, using: &random)).map { "e\($0)" })
        case 4: return .ns((0..<Int.random(in: 1...8, using: &random)).map { DynamoNumber($0 * 7 - 20) })
        case 5: return .bs((0..<Int.random(in: 1...5, using: &random)).map { [UInt8($0), 0xFF] })
        case 6: return .null
        case 7: return .bool(Bool.random(using: &random))
        case 8:
            var map: Item = [:]
            for index in 0..<Int.random(in: 0...12, using: &random) {
                map["m\(index)"] = value(depth: depth + 1, using: &random)
            }
            return .m(map)
        default:
            return .l((0..<Int.random(in: 0...5, using: &random)).map { _ in value(depth: depth + 1, using: &random) })
        }
    }

    /// The item's wire JSON with members and set elements shuffled and numbers respelled.
    static func wireJSON(item: Item, using random: inout SeededRandom) -> String {
        let members = item.keys.shuffled(using: &random).map { name in
            "\(quoted(name)):\(wireJSON(item[name]!, using: &random))"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func wireJSON(_ value: AttributeValue, using random: inout SeededRandom) -> String {
        switch value {
        case .s(let text): return #"{"S":\#(quoted(text))}"#
        case .n(let number): return #"{"N":\#(quoted(spelling(number, using: &random)))}"#
        case .b(let bytes): return #"{"B":\#(quoted(Base64.encode(bytes)))}"#
        case .ss(let texts): return #"{"SS":[\#(texts.shuffled(using: &random).map(quoted).joined(separator: ","))]}"#
        case .ns(let numbers):
            let texts = numbers.shuffled(using: &random).map { quoted(spelling($0, using: &random)) }
            return #"{"NS":[\#(texts.joined(separator: ","))]}"#
        case .bs(let blobs):
            return #"{"BS":[\#(blobs.shuffled(using: &random).map { quoted(Base64.encode($0)) }.joined(separator: ","))]}"#
        case .m(let map): return #"{"M":\#(wireJSON(item: map, using: &random))}"#
        case .l(let values): return #"{"L":[\#(values.map { wireJSON($0, using: &random) }.joined(separator: ","))]}"#
        case .null: return #"{"NULL":true}"#
        case .bool(let flag): return #"{"BOOL":\#(flag)}"#
        }
    }

    /// One of several spellings of the same number (`12`, `12.0`, `1.2E1` style variants).
    static func spelling(_ number: DynamoNumber, using random: inout SeededRandom) -> String {
        let text = number.description
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return text
        case 1: return text.contains(".") ? text + "00" : text + ".0"
        default: return text + "E0"
        }
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
