import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// DynamoDB items in Amazon Ion text, as exports write them and imports read them: numbers as
/// Ion decimals (`103.`, `1.5`, `1d40`), binary as blobs (`{{…}}`), sets as lists annotated
/// `$dynamodb_SS::`, `$dynamodb_NS::` or `$dynamodb_BS::`, maps as structs.
enum IonText {
    /// The Ion version marker that starts every file.
    static let versionMarker = "$ion_1_0"

    // MARK: Writing

    static func write(_ value: AttributeValue, to text: inout String) {
        switch value {
        case .s(let string): writeString(string, to: &text)
        case .n(let number): text += decimal(number)
        case .b(let bytes): text += "{{\(Data(bytes).base64EncodedString())}}"
        case .bool(let flag): text += flag ? "true" : "false"
        case .null: text += "null"
        case .ss(let strings): writeList("$dynamodb_SS::", strings.map(AttributeValue.s), to: &text)
        case .ns(let numbers): writeList("$dynamodb_NS::", numbers.map(AttributeValue.n), to: &text)
        case .bs(let blobs): writeList("$dynamodb_BS::", blobs.map(AttributeValue.b), to: &text)
        case .l(let values): writeList("", values, to: &text)
        case .m(let map): writeStruct(map, to: &text)
        }
    }

    static func writeStruct(_ map: [String: AttributeValue], to text: inout String) {
        text += "{"
        for (position, name) in map.keys.sorted().enumerated() {
            if position > 0 { text += "," }
            writeSymbol(name, to: &text)
            text += ":"
            write(map[name]!, to: &text)
        }
        text += "}"
    }

    private static func writeList(_ annotation: String, _ values: [AttributeValue], to text: inout String) {
        text += annotation + "["
        for (position, value) in values.enumerated() {
            if position > 0 { text += "," }
            write(value, to: &text)
        }
        text += "]"
    }

    /// A DynamoDB number as an Ion decimal: `1E+40` → `1d40`, `103` → `103.`.
    static func decimal(_ number: DynamoNumber) -> String {
        let plain = number.description
        if let e = plain.firstIndex(where: { $0 == "E" || $0 == "e" }) {
            let exponent = plain[plain.index(after: e)...].replacingPlus()
            return "\(plain[..<e])d\(exponent)"
        }
        return plain.contains(".") ? plain : plain + "."
    }

    private static func writeSymbol(_ name: String, to text: inout String) {
        let simple =
            name.first.map { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "$") } ?? false
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }
            && !["true", "false", "null", "nan"].contains(name)
        if simple {
            text += name
        } else {
            text += "'" + escaped(name, quote: "'") + "'"
        }
    }

    private static func writeString(_ string: String, to text: inout String) {
        text += "\"" + escaped(string, quote: "\"") + "\""
    }

    private static func escaped(_ string: String, quote: Character) -> String {
        var out = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Character(scalar) == quote {
                    out += "\\" + String(quote)
                } else if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

private extension Substring {
    func replacingPlus() -> String { first == "+" ? String(dropFirst()) : String(self) }
}
