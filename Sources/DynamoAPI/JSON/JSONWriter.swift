/// Writes compact JSON into a byte array.
///
/// Response shapes write themselves straight into a writer, without an intermediate tree, so a
/// response costs one pass and one buffer.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The output as text.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends raw, already valid JSON.
    public mutating func writeRaw(_ json: some Sequence<UInt8>) {
        bytes.append(contentsOf: json)
    }

    public mutating func writeRaw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Writes a string literal with JSON escaping.
    public mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                runStart = offset + 1
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a JSON number from its text (the caller guarantees it is a valid JSON number).
    public mutating func write(numberText: String) {
        bytes.append(contentsOf: numberText.utf8)
    }

    public mutating func write(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }
    public mutating func write(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }
    public mutating func write(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// Writes a Double as DynamoDB does for timestamps (epoch seconds with a fraction).
    public mutating func write(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Writes any JSON value; object members are sorted by key for stable output.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): write(flag)
        case .number(let text): write(numberText: text)
        case .string(let text): write(string: text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (position, key) in members.keys.sorted().enumerated() {
                writeKey(key, first: position == 0)
                write(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `"key":`, preceded by a comma unless it is the first member.
    public mutating func writeKey(_ key: String, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        write(string: key)
        bytes.append(UInt8(ascii: ":"))
    }
}
