import AWSSigV4
import DynamoAPI

/// A position in one shard, handed to clients as an opaque string:
/// `<stream ARN>|1|<hex fields><hex MAC>`, the shape of DynamoDB's own iterators.
///
/// The fields are the shard's number, the sequence number of the next record to read and the
/// time of issue in milliseconds. The MAC is HMAC-SHA256 under the server's ``ShardIteratorKey``
/// over the stream ARN, the stream's own secret and the fields, so a client cannot make an
/// iterator, or turn one into an iterator of another stream, shard, position or age, without
/// the server noticing: such an iterator is "Invalid ShardIterator". Iterators are therefore
/// valid only on the server that issued them (and for 15 minutes of its clock).
struct ShardIterator: Sendable {
    var streamARN: String
    var shardNumber: Int64
    /// The sequence number of the next record to read.
    var position: Int64
    var issuedMillis: Int64

    /// Hex digits of the three fields and of the MAC.
    private static let fieldDigits = 48
    private static let macDigits = 64

    private var fields: [Int64] { [shardNumber, position, issuedMillis] }

    func encoded(key: ShardIteratorKey, streamSecret: UInt64) -> String {
        let words = fields.map { UInt64(bitPattern: $0) }
        return "\(streamARN)|1|" + words.map(Self.hex).joined() + Self.hex(mac(key: key, streamSecret: streamSecret))
    }

    /// The iterator's unverified fields and MAC, or `nil` when the text does not have an iterator's shape.
    static func parse(_ text: String) -> (iterator: ShardIterator, mac: [UInt8])? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "1", parts[2].utf8.count == fieldDigits + macDigits else { return nil }
        let payload = Array(parts[2].utf8)
        var words: [UInt64] = []
        for start in stride(from: 0, to: fieldDigits, by: 16) {
            guard let word = UInt64(String(decoding: payload[start..<start + 16], as: UTF8.self), radix: 16) else { return nil }
            words.append(word)
        }
        var mac: [UInt8] = []
        for start in stride(from: fieldDigits, to: payload.count, by: 2) {
            guard let byte = UInt8(String(decoding: payload[start..<start + 2], as: UTF8.self), radix: 16) else { return nil }
            mac.append(byte)
        }
        let iterator = ShardIterator(
            streamARN: String(parts[0]), shardNumber: Int64(bitPattern: words[0]),
            position: Int64(bitPattern: words[1]), issuedMillis: Int64(bitPattern: words[2]))
        return (iterator, mac)
    }

    /// Whether `mac` is this iterator's MAC (compared in constant time).
    func verify(_ mac: [UInt8], key: ShardIteratorKey, streamSecret: UInt64) -> Bool {
        let expected = self.mac(key: key, streamSecret: streamSecret)
        guard mac.count == expected.count else { return false }
        return zip(mac, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func mac(key: ShardIteratorKey, streamSecret: UInt64) -> [UInt8] {
        var message = Array(streamARN.utf8)
        message.append(0)
        for word in [streamSecret] + fields.map({ UInt64(bitPattern: $0) }) {
            for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return HMACSHA256.authenticate(message, key: key.bytes)
    }

    private static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// The key of the server's shard-iterator MACs: 32 random bytes drawn when the engine starts
/// (so iterators do not outlive the server that issued them), or fixed by a test.
package struct ShardIteratorKey: Sendable {
    let bytes: [UInt8]

    /// A fresh random key.
    package init() {
        var generator = SystemRandomNumberGenerator()
        bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A fixed key (tests).
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
