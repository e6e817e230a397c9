/// Splits a top-level JSON array into its elements' bytes, remembering the line each starts on,
/// so a bad element of a large file is reported by line without a position-tracking parser.
///
/// It only tracks strings, escapes and nesting depth; each element is then parsed on its own.
enum JSONArraySplitter {
    struct Failure: Error {
        var line: Int
        var message: String
    }

    static func elements(_ bytes: [UInt8]) throws(Failure) -> [(line: Int, bytes: ArraySlice<UInt8>)] {
        var line = 1
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            throw Failure(line: line, message: "a .json items file holds one JSON array of items")
        }
        index += 1
        var elements: [(line: Int, bytes: ArraySlice<UInt8>)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return try finish(bytes, after: index + 1, line: line, elements) }
        while true {
            skipSpace()
            let start = index
            let startLine = line
            var depth = 0
            var inString = false
            var escaped = false
            scanning: while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A { line += 1 }
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        if depth == 0 { break scanning }
                        depth -= 1
                    case UInt8(ascii: ","): if depth == 0 { break scanning }
                    default: break
                    }
                }
                index += 1
            }
            guard index < bytes.count else { throw Failure(line: line, message: "the array is not closed") }
            var end = index
            while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
            guard end > start else { throw Failure(line: startLine, message: "an empty array element") }
            elements.append((startLine, bytes[start..<end]))
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return try finish(bytes, after: index, line: line, elements) }
            guard separator == UInt8(ascii: ",") else { throw Failure(line: line, message: "unbalanced brackets") }
        }
    }

    private static func finish(
        _ bytes: [UInt8], after index: Int, line: Int,
        _ elements: [(line: Int, bytes: ArraySlice<UInt8>)]
    ) throws(Failure) -> [(line: Int, bytes: ArraySlice<UInt8>)] {
        var line = line
        for byte in bytes[index...] {
            if byte == 0x0A { line += 1; continue }
            guard [0x20, 0x09, 0x0D].contains(byte) else { throw Failure(line: line, message: "text after the array") }
        }
        return elements
    }
}
