import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the Ion text subset DynamoDB's exports use (see ``IonText``) into attribute values:
/// structs, lists, strings, decimals and integers, blobs, booleans, nulls, annotations and
/// comments. Top-level symbols (the `$ion_1_0` marker) are skipped.
struct IonReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next top-level value, or `nil` at the end; `line` is where it started.
    mutating func next() throws -> (value: AttributeValue, line: Int)? {
        while true {
            skipSpace()
            guard position < bytes.count else { return nil }
            let line = bytes[..<position].reduce(1) { $1 == 10 ? $0 + 1 : $0 }
            if bytes[position] == UInt8(ascii: "$") || isSymbolStart(bytes[position]) {
                let start = position
                let symbol = readSymbol()
                skipSpace()
                if symbol == "true" || symbol == "false" || symbol == "null" || hasPrefix("::") {
                    position = start
                } else {
                    continue
                }
            }
            return (try value(), line)
        }
    }

    private mutating func value() throws -> AttributeValue {
        skipSpace()
        var annotation: String?
        if position < bytes.count, isSymbolStart(bytes[position]) || bytes[position] == UInt8(ascii: "$") {
            let start = position
            let symbol = readSymbol()
            skipSpace()
            if hasPrefix("::") {
                position += 2
                annotation = symbol
                skipSpace()
            } else {
                position = start
            }
        }
        guard position < bytes.count else { throw fail("unexpected end of data") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            if hasPrefix("{{") { return .b(try blob()) }
            return .m(try structure())
        case UInt8(ascii: "["):
            let values = try list()
            switch annotation {
            case "$dynamodb_SS":
                return .ss(
                    try values.map { value throws(Failure) -> String in
                        guard case .s(let string) = value else { throw fail("a string set holds a non-string") }
                        return string
                    })
            case "$dynamodb_NS":
                return .ns(
                    try values.map { value throws(Failure) -> DynamoNumber in
                        guard case .n(let number) = value else { throw fail("a number set holds a non-number") }
                        return number
                    })
            case "$dynamodb_BS":
                return .bs(
                    try values.map { value throws(Failure) -> [UInt8] in
                        guard case .b(let blob) = value else { throw fail("a binary set holds a non-blob") }
                        return blob
                    })
            default:
                return .l(values)
            }
        case UInt8(ascii: "\""):
            return .s(try string(quote: UInt8(ascii: "\"")))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .n(try number())
        default:
            let symbol = readSymbol()
            switch symbol {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null":
                if hasPrefix(".") {
                    position += 1
                    _ = readSymbol()
                }
                return .null
            default: throw fail("unexpected \(symbol.isEmpty ? "character" : "symbol \(symbol)")")
            }
        }
    }

    private mutating func structure() throws -> [String: AttributeValue] {
        position += 1
        var map: [String: AttributeValue] = [:]
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("unterminated struct") }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return map
            }
            let name: String
            switch bytes[position] {
            case UInt8(ascii: "\""): name = try string(quote: UInt8(ascii: "\""))
            case UInt8(ascii: "'"): name = try string(quote: UInt8(ascii: "'"))
            default: name = readSymbol()
            }
            guard !name.isEmpty else { throw fail("expected a field name") }
            skipSpace()
            guard hasPrefix(":") else { throw fail("expected ':' after field \(name)") }
            position += 1
            map[name] = try value()
            skipSpace()
            if hasPrefix(",") { position += 1 }
        }
    }

    private mutating func list() throws -> [AttributeValue] {
        position += 1
        var values: [AttributeValue] = []
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("unterminated list") }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return values
            }
            values.append(try value())
            skipSpace()
            if hasPrefix(",") { position += 1 }
        }
    }

    private mutating func blob() throws -> [UInt8] {
        position += 2
        var text = ""
        while position < bytes.count, !hasPrefix("}}") {
            if bytes[position] > 32 { text.unicodeScalars.append(Unicode.Scalar(bytes[position])) }
            position += 1
        }
        guard hasPrefix("}}"), let data = Data(base64Encoded: text) else { throw fail("malformed blob") }
        position += 2
        return Array(data)
    }

    private mutating func number() throws -> DynamoNumber {
        var text = ""
        while position < bytes.count {
            let byte = bytes[position]
            let isPart =
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [
                    UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "d"), UInt8(ascii: "D"),
                    UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "_"),
                ].contains(byte)
            guard isPart else { break }
            if byte != UInt8(ascii: "_") {
                text.unicodeScalars.append(
                    Unicode.Scalar(
                        byte == UInt8(ascii: "d") || byte == UInt8(ascii: "D")
                            ? UInt8(ascii: "E") : byte))
            }
            position += 1
        }
        if text.hasSuffix(".") { text.removeLast() }
        text = text.replacing(".E", with: "E")
        do {
            return try DynamoNumber(parsing: text)
        } catch {
            throw fail("invalid number \(text)")
        }
    }

    private mutating func string(quote: UInt8) throws -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        func flush() { scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars); pending = [] }
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == quote {
                flush()
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else {
                pending.append(byte)
                continue
            }
            flush()
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "0"): scalars.append("\0")
            case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
                let count = escape == UInt8(ascii: "x") ? 2 : escape == UInt8(ascii: "u") ? 4 : 8
                guard position + count <= bytes.count,
                    let value = UInt32(String(decoding: bytes[position..<position + count], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { throw fail("bad escape") }
                scalars.append(scalar)
                position += count
            default: scalars.append(Unicode.Scalar(escape))
            }
        }
        throw fail("unterminated string")
    }

    private mutating func readSymbol() -> String {
        let start = position
        while position < bytes.count,
            isSymbolStart(bytes[position]) || bytes[position] == UInt8(ascii: "$")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
        {
            position += 1
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private func isSymbolStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private func hasPrefix(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return position + utf8.count <= bytes.count && Array(bytes[position..<position + utf8.count]) == utf8
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            if [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains(bytes[position]) {
                position += 1
            } else if hasPrefix("//") {
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            } else if hasPrefix("/*") {
                position += 2
                while position < bytes.count, !hasPrefix("*/") { position += 1 }
                position = min(bytes.count, position + 2)
            } else {
                return
            }
        }
    }

    private func fail(_ message: String) -> Failure {
        Failure(description: "Ion: \(message) at byte \(position)")
    }
}
