/// A strict RFC 8259 parser over UTF-8 bytes, producing `JSONValue`.
///
/// Hand-written because DynamoDB requests are parsed on every call: it makes one pass, does not
/// go through `Double`, and limits nesting so a hostile body cannot exhaust the stack.
struct JSONParser {
    /// Deeper documents are rejected (DynamoDB itself allows 32 levels of attribute nesting).
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Whether each object also records its member names in document order, under
    /// ``JSONValue/memberOrderKey`` (for the few checks that report the first problem as
    /// written; never on the request path).
    private let recordsMemberOrder: Bool

    init(bytes: [UInt8], recordsMemberOrder: Bool = false) {
        self.bytes = bytes
        self.recordsMemberOrder = recordsMemberOrder
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("Unexpected data after the document") }
        return value
    }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("Unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("Unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("Unexpected end of input") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw error("Invalid literal")
        }
        index += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("Document nested too deeply") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        var order: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("Expected a member name")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("Expected ':'") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
            if recordsMemberOrder { order.append(.string(key)) }
            skipWhitespace()
            guard index < bytes.count else { throw error("Unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("Expected ',' or '}'") }
            index += 1
            depth -= 1
            if recordsMemberOrder { members[JSONValue.memberOrderKey] = .array(order) }
            return .object(members)
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("Unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("Expected ',' or ']'") }
            index += 1
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("Invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw error("Invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("Invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("Invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1 // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try validatedUTF8(bytes[start..<index])
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("Control character in string") }
            index += 1
        }
        guard index < bytes.count else { throw error("Unterminated string") }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try validatedUTF8(buffer[...])
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("Unterminated string") }
                let escape = bytes[index]
                index += 1
                if let byte = JSONEscape.simple(escape) {
                    buffer.append(byte)
                } else if escape == UInt8(ascii: "u") {
                    try appendUnicodeEscape(to: &buffer)
                } else {
                    throw error("Invalid escape")
                }
            default:
                if byte < 0x20 { throw error("Control character in string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw error("Unterminated string")
    }

    private mutating func appendUnicodeEscape(to buffer: inout [UInt8]) throws(JSONParseError) {
        do {
            try JSONEscape.appendUnicodeEscape(from: bytes, at: &index, to: &buffer)
        } catch {
            throw self.error(error.rawValue)
        }
    }

    private func validatedUTF8(_ slice: ArraySlice<UInt8>) throws(JSONParseError) -> String {
        // Most names and values are ASCII, which is valid UTF-8 as it is: checking that is far
        // cheaper than the generic validation.
        if slice.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: slice, as: UTF8.self)
        }
        guard let text = String(validating: slice, as: UTF8.self) else { throw error("Invalid UTF-8") }
        return text
    }
}
