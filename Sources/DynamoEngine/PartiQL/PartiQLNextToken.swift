import DynamoAPI
import DynamoPartiQL

/// ExecuteStatement's `NextToken`: which partition of the statement's plan to read next and the
/// key to start after, tied to the statement it was issued for.
struct PartiQLNextToken {
    /// How long DynamoDB honours a NextToken (an hour, as AWS documents it).
    static let lifetime: Double = 3600

    var partition: Int
    var startKey: Item?

    init(partition: Int, startKey: Item?) {
        self.partition = partition
        self.startKey = startKey
    }

    /// The opaque token: base64 of `{"s": statement hash, "t": issue time, "p": partition, "k": key}`.
    func encode(statement: String, now: Double) -> String {
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("s", first: true)
        writer.write(string: Self.hash(statement))
        writer.writeKey("t", first: false)
        writer.write(numberText: String(Int64(now)))
        writer.writeKey("p", first: false)
        writer.write(numberText: String(partition))
        if let startKey {
            writer.writeKey("k", first: false)
            AttributeValue.encode(item: startKey, to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
        return Base64.encode(writer.bytes)
    }

    /// Reads a token back.
    ///
    /// - Throws: "Invalid NextToken" for anything this server did not issue, "The provided
    ///   starting key is invalid" for a token of another statement, "Given NextToken has already
    ///   expired" after an hour of the server's clock.
    init(decoding token: String, statement: String, partitions: Int, now: Double) throws(DynamoError) {
        guard case .success(let bytes) = Base64.decode(token),
            let json = try? JSONValue(parsing: bytes), case .object(let members) = json,
            case .string(let hash)? = members["s"], case .number(let partitionText)? = members["p"],
            let partition = Int(partitionText), partition >= 0,
            case .number(let issuedText)? = members["t"], let issued = Double(issuedText)
        else { throw PartiQLMessages.invalidNextToken }
        if now - issued > Self.lifetime { throw PartiQLMessages.expiredNextToken }
        guard hash == Self.hash(statement), partition < max(partitions, 1) else { throw PartiQLMessages.foreignNextToken }
        self.partition = partition
        if let key = members["k"] {
            do { startKey = try AttributeValue.decodeItem(key) } catch { throw PartiQLMessages.invalidNextToken }
        }
    }

    /// FNV-1a of the statement's bytes, as hex.
    static func hash(_ statement: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in statement.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
