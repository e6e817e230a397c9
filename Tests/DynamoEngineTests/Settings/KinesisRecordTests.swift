import DynamoAPI
@testable import DynamoEngine
import Foundation
import Synchronization
import Testing

/// What an ACTIVE Kinesis streaming destination hands its sink: DynamoDB's Kinesis record of
/// every real change, in write order, with one partition key per item.
@Suite struct KinesisRecordTests {
    final class RecordingSink: KinesisRecordSink {
        let records = Mutex<[KinesisChangeRecord]>([])
        let writable: Bool
        init(writable: Bool = true) { self.writable = writable }
        func streamIsWritable(streamARN: String, region: String) -> Bool { writable }
        func enqueue(_ records: [KinesisChangeRecord]) { self.records.withLock { $0 += records } }
    }

    static let stream = "arn:aws:kinesis:us-east-1:000000000000:stream/orders"

    static func json(_ record: KinesisChangeRecord) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(record.data)) as? [String: Any])
    }

    @Test func activeDestinationReceivesEveryChangeInOrder() throws {
        let time = ControlSettingsTests.FakeTime()
        let database = try ControlSettingsTests.database(time)
        let sink = RecordingSink()
        database.kinesis.sink = sink
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("before")]))
        _ = try database.enableKinesisStreamingDestination(
            KinesisStreamingDestinationInput(
                tableName: "Things", streamArn: Self.stream,
                enableKinesisStreamingConfiguration: .init(approximateCreationDateTimePrecision: .microsecond)))
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("enabling")]))
        #expect(sink.records.withLock { $0.isEmpty })
        time.tick(1)
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .n(DynamoNumber(1))]))
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .n(DynamoNumber(1))]))
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .n(DynamoNumber(2))]))
        _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("a")]))
        let records = sink.records.withLock { $0 }
        // The identical rewrite is no change and sends nothing.
        #expect(records.count == 3)
        let decoded = try records.map(Self.json)
        #expect(decoded.map { $0["eventName"] as? String } == ["INSERT", "MODIFY", "REMOVE"])
        #expect(Set(records.map(\.partitionKey)).count == 1)
        #expect(records.allSatisfy { $0.streamARN == Self.stream && $0.region == "us-east-1" })
        for record in decoded {
            #expect(record["tableName"] as? String == "Things")
            #expect(record["recordFormat"] as? String == "application/json")
            #expect(record["eventSource"] as? String == "aws:dynamodb")
            #expect(record["userIdentity"] is NSNull)
            let body = try #require(record["dynamodb"] as? [String: Any])
            let stamp = try #require(body["ApproximateCreationDateTime"] as? Int)
            #expect(stamp == Int(database.clock.now() * 1_000_000))
            #expect((body["Keys"] as? [String: Any])?.keys.sorted() == ["pk"])
        }
        let modify = try #require(decoded[1]["dynamodb"] as? [String: Any])
        #expect(((modify["OldImage"] as? [String: Any])?["v"] as? [String: String]) == ["N": "1"])
        #expect(((modify["NewImage"] as? [String: Any])?["v"] as? [String: String]) == ["N": "2"])
    }

    @Test func millisecondPrecisionIsTheDefault() throws {
        let time = ControlSettingsTests.FakeTime()
        let database = try ControlSettingsTests.database(time)
        let sink = RecordingSink()
        database.kinesis.sink = sink
        _ = try database.enableKinesisStreamingDestination(KinesisStreamingDestinationInput(tableName: "Things", streamArn: Self.stream))
        time.tick(1)
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a")]))
        let record = try Self.json(try #require(sink.records.withLock { $0.first }))
        let body = try #require(record["dynamodb"] as? [String: Any])
        #expect(body["ApproximateCreationDateTime"] as? Int == Int(database.clock.now() * 1000))
    }

    @Test func streamTheSinkCannotWriteEndsEnableFailed() throws {
        let time = ControlSettingsTests.FakeTime()
        let database = try ControlSettingsTests.database(time)
        let sink = RecordingSink(writable: false)
        database.kinesis.sink = sink
        _ = try database.enableKinesisStreamingDestination(KinesisStreamingDestinationInput(tableName: "Things", streamArn: Self.stream))
        time.tick(1)
        let destination = try database.describeKinesisStreamingDestination(
            DescribeKinesisStreamingDestinationInput(tableName: "Things")
        ).kinesisDataStreamDestinations?.first
        #expect(destination?.destinationStatus == .enableFailed)
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a")]))
        #expect(sink.records.withLock { $0.isEmpty })
    }
}
