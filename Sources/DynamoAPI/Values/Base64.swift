/// Standard base64 (RFC 4648, with padding), as DynamoDB uses for binary values.
public enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Why a text is not base64, in the words of DynamoDB's deserializer.
    public struct DecodingProblem: Error, Sendable, Hashable {
        public var message: String
    }

    /// Encodes bytes as padded base64 text.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes padded base64 text strictly.
    public static func decode(_ text: String) -> Result<[UInt8], DecodingProblem> {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else {
            return .failure(
                DecodingProblem(
                    message: "Base64 encoded length is expected a multiple of 4 bytes but found: \(input.count)"))
        }
        var output = [UInt8]()
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            var values = [UInt8](repeating: 0, count: 4)
            var padding = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                if byte == UInt8(ascii: "=") {
                    // Padding only at the end of the last quantum, and only in positions 2 and 3.
                    guard index + 4 == input.count, offset >= 2 else {
                        return .failure(DecodingProblem(message: "Invalid Base64 character: '='"))
                    }
                    padding += 1
                    continue
                }
                if padding > 0 {
                    return .failure(DecodingProblem(message: "Invalid Base64 character: '='"))
                }
                let value = reverse[Int(byte)]
                guard value != 0xFF else {
                    let character = String(decoding: [byte], as: UTF8.self)
                    return .failure(DecodingProblem(message: "Invalid Base64 character: '\(character)'"))
                }
                values[offset] = value
            }
            let chunk = UInt32(values[0]) << 18 | UInt32(values[1]) << 12 | UInt32(values[2]) << 6 | UInt32(values[3])
            output.append(UInt8(chunk >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(chunk >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(chunk & 0xFF)) }
            // Bits below the last encoded byte must be zero (canonical encoding).
            if (padding == 1 && values[2] & 0x3 != 0) || (padding == 2 && values[1] & 0xF != 0) {
                return .failure(DecodingProblem(message: "Invalid last non-pad Base64 character dectected"))
            }
            index += 4
        }
        return .success(output)
    }
}
