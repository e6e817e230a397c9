import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

@Suite("Stream records")
struct StreamRecordTests {
    typealias Support = StreamTestSupport

    @Test("each view type carries its images", arguments: [StreamViewType.keysOnly, .newImage, .oldImage, .newAndOldImages])
    func viewTypes(view: StreamViewType) throws {
        let database = try Support.database()
        try Support.makeTable(database, view: view)
        try Support.put(database, ["pk": .s("a"), "v": .n(DynamoNumber(1))])
        try Support.put(database, ["pk": .s("a"), "v": .n(DynamoNumber(2))])
        _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s("a")]))
        let records = try Support.consume(database, streamARN: Support.latestStreamARN(database))
        #expect(records.map(\.eventName) == [.insert, .modify, .remove])
        let withNew = view == .newImage || view == .newAndOldImages
        let withOld = view == .oldImage || view == .newAndOldImages
        for (index, record) in records.enumerated() {
            let body = try #require(record.dynamodb)
            #expect(body.keys == ["pk": .s("a")])
            #expect(body.streamViewType == view)
            #expect(record.eventSource == "aws:dynamodb")
            #expect(record.eventVersion == "1.1")
            #expect(record.awsRegion == "us-east-1")
            #expect(record.eventID?.count == 32)
            #expect(record.userIdentity == nil)
            #expect(body.approximateCreationDateTime == Timestamp(secondsSince1970: Support.start))
            #expect((body.sizeBytes ?? 0) > 0)
            #expect((body.newImage != nil) == (withNew && index < 2))
            #expect((body.oldImage != nil) == (withOld && index > 0))
        }
        if withNew { #expect(records[1].dynamodb?.newImage?["v"] == .n(DynamoNumber(2))) }
        if withOld { #expect(records[2].dynamodb?.oldImage?["v"] == .n(DynamoNumber(2))) }
        let sequences = records.compactMap { $0.dynamodb?.sequenceNumber }
        #expect(sequences.count == 3)
        #expect(sequences == sequences.sorted() && Set(sequences).count == 3)
        #expect(sequences.allSatisfy { $0.count == 21 && $0.allSatisfy(\.isNumber) })
    }

    @Test("no record for writes that change nothing")
    func noRecordWithoutChange() throws {
        let database = try Support.database()
        try Support.makeTable(database)
        try Support.put(database, ["pk": .s("a"), "s": .ss(["x", "y"])])
        // The same item again (a set in another order is the same value).
        try Support.put(database, ["pk": .s("a"), "s": .ss(["y", "x"])])
        // A failed condition, a delete of a missing item, an update that sets the same value.
        #expect(throws: DynamoError.self) {
            try database.putItem(
                PutItemInput(
                    tableName: "Events", item: ["pk": .s("a")],
                    conditionExpression: "attribute_not_exists(pk)"))
        }
        _ = try database.deleteItem(DeleteItemInput(tableName: "Events", key: ["pk": .s("missing")]))
        _ = try database.updateItem(
            UpdateItemInput(
                tableName: "Events", key: ["pk": .s("a")],
                updateExpression: "SET s = :s",
                expressionAttributeValues: [":s": .ss(["x", "y"])]))
        let records = try Support.consume(database, streamARN: Support.latestStreamARN(database))
        #expect(records.map(\.eventName) == [.insert])
    }

    @Test("a table without a stream writes no records and has no stream")
    func noStream() throws {
        let database = try Support.database()
        try Support.makeTable(database, view: nil)
        try Support.put(database, ["pk": .s("a")])
        #expect(try database.listStreams(StreamsListStreamsInput()).streams?.isEmpty == true)
        #expect(
            try database.read { connection in
                let statement = try connection.statement("SELECT count(*) FROM stream_records")
                _ = try statement.step()
                return statement.int64(0)
            } == 0)
    }
}
