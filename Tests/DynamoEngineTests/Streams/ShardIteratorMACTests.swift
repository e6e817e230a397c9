import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Shard iterators carry an HMAC-SHA256 under the server's key: any change to an iterator, and
/// any iterator issued under another key, is refused as DynamoDB Streams refuses a bad one.
@Suite("Shard iterator MAC")
struct ShardIteratorMACTests {
    typealias Support = StreamTestSupport

    static let key = ShardIteratorKey(bytes: Array(repeating: 7, count: 32))

    static func streamWithIterator(_ database: Database) throws -> (arn: String, iterator: String) {
        try Support.makeTable(database)
        try Support.put(database, ["pk": .s("a")])
        let arn = try Support.latestStreamARN(database)
        let shard = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards?.first?.shardId)
        let iterator = try #require(
            database.getShardIterator(
                StreamsGetShardIteratorInput(
                    streamArn: arn, shardId: shard, shardIteratorType: .trimHorizon)
            ).shardIterator)
        return (arn, iterator)
    }

    @Test("an iterator round-trips and verifies only under its key and stream secret")
    func roundTrip() throws {
        let iterator = ShardIterator(
            streamARN: "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/2026-01-01T00:00:00.000",
            shardNumber: 3, position: 42, issuedMillis: 1_767_225_600_123)
        let text = iterator.encoded(key: Self.key, streamSecret: 99)
        let (parsed, mac) = try #require(ShardIterator.parse(text))
        #expect(
            parsed.streamARN == iterator.streamARN && parsed.shardNumber == 3 && parsed.position == 42
                && parsed.issuedMillis == iterator.issuedMillis)
        #expect(mac.count == 32)
        #expect(parsed.verify(mac, key: Self.key, streamSecret: 99))
        #expect(!parsed.verify(mac, key: Self.key, streamSecret: 98))
        #expect(!parsed.verify(mac, key: ShardIteratorKey(bytes: Array(repeating: 8, count: 32)), streamSecret: 99))
        #expect(!parsed.verify(Array(mac.dropLast()), key: Self.key, streamSecret: 99))
    }

    @Test("every one-digit change of an iterator is refused")
    func everyTamperingIsRefused() throws {
        let database = try Support.database()
        let (_, iterator) = try Self.streamWithIterator(database)
        #expect(try database.getRecords(StreamsGetRecordsInput(shardIterator: iterator)).records?.count == 1)
        let characters = Array(iterator)
        let payloadStart = try #require(iterator.range(of: "|1|")).upperBound.utf16Offset(in: iterator)
        #expect(characters.count - payloadStart == 112)
        for position in payloadStart..<characters.count {
            var changed = characters
            changed[position] = changed[position] == "0" ? "f" : "0"
            #expect(throws: StreamErrors.invalidIterator(), "digit \(position - payloadStart)") {
                try database.getRecords(StreamsGetRecordsInput(shardIterator: String(changed)))
            }
        }
    }

    @Test("an iterator from another server (another key) is refused; the same key accepts it")
    func anotherServersIterator() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mac-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/us-east-1.db"
        let clock = Support.clock()
        let iterator: String
        do {
            let database = try Database(path: path, region: "us-east-1", clock: clock, iteratorKey: Self.key)
            iterator = try Self.streamWithIterator(database).iterator
        }
        let sameKey = try Database(path: path, region: "us-east-1", clock: clock, iteratorKey: Self.key)
        #expect(try sameKey.getRecords(StreamsGetRecordsInput(shardIterator: iterator)).records?.count == 1)
        let restarted = try Database(path: path, region: "us-east-1", clock: clock)
        #expect(throws: StreamErrors.invalidIterator()) {
            try restarted.getRecords(StreamsGetRecordsInput(shardIterator: iterator))
        }
    }

    @Test("two engines draw different keys")
    func keysAreRandom() {
        #expect(ShardIteratorKey().bytes != ShardIteratorKey().bytes)
        #expect(ShardIteratorKey().bytes.count == 32)
    }
}
