import DynamoAPI

/// A position in one shard, handed to clients as an opaque string:
/// `<stream ARN>|1|<hex fields and check>`, the shape of DynamoDB's own iterators.
///
/// The fields are the shard's number, the sequence number of the next record to read and the
/// time of issue in milliseconds; the check is keyed with the stream's secret, so a client
/// cannot turn an iterator into one for another stream (or another shard, position or age)
/// without the server noticing: such an iterator is "Invalid ShardIterator".
struct ShardIterator: Sendable {
    var streamARN: String
    var shardNumber: Int64
    /// The sequence number of the next record to read.
    var position: Int64
    var issuedMillis: Int64

    func encoded(secret: UInt64) -> String {
        let fields = [shardNumber, position, issuedMillis]
        let check = KeyedCheck.value(secret: secret, fields: fields)
        let words = fields.map { UInt64(bitPattern: $0) } + [check]
        return "\(streamARN)|1|" + words.map(Self.hex).joined()
    }

    /// The iterator's unverified fields, or `nil` when the text does not have an iterator's shape.
    static func parse(_ text: String) -> (iterator: ShardIterator, check: UInt64)? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "1", parts[2].utf8.count == 64 else { return nil }
        let payload = Array(parts[2].utf8)
        var words: [UInt64] = []
        for start in stride(from: 0, to: 64, by: 16) {
            guard let word = UInt64(String(decoding: payload[start..<start + 16], as: UTF8.self), radix: 16) else { return nil }
            words.append(word)
        }
        let iterator = ShardIterator(streamARN: String(parts[0]), shardNumber: Int64(bitPattern: words[0]),
                                     position: Int64(bitPattern: words[1]), issuedMillis: Int64(bitPattern: words[2]))
        return (iterator, words[3])
    }

    /// Whether `check` is this iterator's check under `secret`.
    func verify(_ check: UInt64, secret: UInt64) -> Bool {
        KeyedCheck.value(secret: secret, fields: [shardNumber, position, issuedMillis]) == check
    }

    private static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
