import DynamoAPI

/// How DynamoDB Streams names things: stream ARNs, shard ids, sequence numbers, and the limits
/// that go with them.
enum StreamNames {
    /// Records (and disabled streams, and a deleted table's stream) stay readable this long.
    static let retentionSeconds: Double = 24 * 3600
    /// An open shard that holds records is closed and gets a child after this long.
    static let rolloverSeconds: Double = 4 * 3600
    /// An open shard is closed and gets a child once it holds this many records.
    static let rolloverRecords: Int64 = 100_000
    /// Shard iterators are valid this long.
    static let iteratorLifetimeSeconds: Double = 15 * 60

    /// `arn:aws:dynamodb:<region>:<account>:table/<table>/stream/<label>`.
    static func streamARN(region: String, table: String, label: String) -> String {
        "\(ResourceNames.tableARN(region: region, table: table))/stream/\(label)"
    }

    /// The region, table name and label a stream ARN names, or `nil` when it is not one.
    static func parseStreamARN(_ arn: String) -> (region: String, table: String, label: String)? {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[1].hasPrefix("aws"), parts[2] == "dynamodb",
            !parts[3].isEmpty
        else { return nil }
        let resource = parts[5].split(separator: "/", omittingEmptySubsequences: false)
        guard resource.count == 4, resource[0] == "table", resource[2] == "stream",
            !resource[1].isEmpty, !resource[3].isEmpty
        else { return nil }
        let table = String(resource[1])
        let label = String(resource[3])
        return (String(parts[3]), table, label)
    }

    /// Sequence numbers are 21-digit numeric strings, strictly increasing within a stream.
    static func sequenceNumber(_ value: Int64) -> String {
        let digits = String(value)
        return "1" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    /// The stored value of a sequence number this server issued, or `nil`.
    static func parseSequenceNumber(_ text: String) -> Int64? {
        guard text.utf8.count == 21, text.first == "1", text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text.dropFirst())
    }

    /// `shardId-<20 digits>-<8 hex>`, unique per stream and shard.
    static func shardID(created: Double, streamID: Int64, number: Int64, secret: UInt64) -> String {
        let millis = String(Int64(created * 1000))
        let padded = String(repeating: "0", count: max(0, 20 - millis.count)) + millis
        let tag = KeyedCheck.value(secret: secret, fields: [streamID, number]) & 0xFFFF_FFFF
        let hex = String(tag, radix: 16)
        return "shardId-\(padded)-\(String(repeating: "0", count: 8 - hex.count))\(hex)"
    }
}

/// A keyed 64-bit check (FNV-1a over a secret and the fields, then the secret again), used to
/// give shard ids a per-stream tag. Not a MAC: shard iterators are checked by HMAC-SHA256
/// (``ShardIterator``).
enum KeyedCheck {
    static func value(secret: UInt64, fields: [Int64]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash ^= (word >> UInt64(shift)) & 0xFF
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        mix(secret)
        for field in fields { mix(UInt64(bitPattern: field)) }
        mix(secret ^ 0x9E37_79B9_7F4A_7C15)
        return hash
    }
}
