import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Tables, writes and a stream consumer for the stream and TTL tests.
enum StreamTestSupport {
    static let start: Double = 1_767_225_600

    /// A clock pinned to `start` that moves only when a test moves it.
    static func clock() -> ServerClock {
        ServerClock(startingAt: start, systemTime: { 1_767_225_600 })
    }

    static func database(path: String? = nil, clock: ServerClock = clock()) throws -> Database {
        try Database(path: path, region: "us-east-1", clock: clock)
    }

    /// A table keyed `pk` (S) with a global index on `g` (S), optionally streamed.
    static func makeTable(_ database: Database, name: String = "Events", view: StreamViewType? = .newAndOldImages) throws {
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [
                    AttributeDefinition(attributeName: "pk", attributeType: .init(rawValue: "S")),
                    AttributeDefinition(attributeName: "g", attributeType: .init(rawValue: "S")),
                ],
                tableName: name,
                keySchema: [KeySchemaElement(attributeName: "pk", keyType: .hash)],
                globalSecondaryIndexes: [
                    GlobalSecondaryIndex(
                        indexName: "byG", keySchema: [KeySchemaElement(attributeName: "g", keyType: .hash)],
                        projection: Projection(projectionType: .init(rawValue: "ALL")))
                ],
                billingMode: .init(rawValue: "PAY_PER_REQUEST"),
                streamSpecification: view.map { StreamSpecification(streamEnabled: true, streamViewType: $0) }),
            now: database.clock.now())
    }

    /// Runs `body` with the path of a database file in a new temporary directory, removed after.
    static func withDatabasePath<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streams-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory + "/us-east-1.db")
    }

    static func latestStreamARN(_ database: Database, table: String = "Events") throws -> String {
        let definition = try database.table(named: table)
        let label = try #require(definition.streamLabel)
        return StreamNames.streamARN(region: database.region, table: table, label: label)
    }

    static func put(_ database: Database, _ item: Item, table: String = "Events") throws {
        _ = try database.putItem(PutItemInput(tableName: table, item: item))
    }

    /// Every record of a stream, reading each shard from its trim horizon after its parent,
    /// as a consumer that follows shard lineage does.
    static func consume(_ database: Database, streamARN: String) throws -> [StreamsRecord] {
        let description = try #require(database.describeStream(StreamsDescribeStreamInput(streamArn: streamARN)).streamDescription)
        let shards = description.shards ?? []
        var done = Set<String>()
        var records: [StreamsRecord] = []
        var pending = shards
        while !pending.isEmpty {
            let ready = pending.filter { shard in
                shard.parentShardId.map { done.contains($0) || !shards.contains { $0.shardId == shard.parentShardId } } ?? true
            }
            try #require(!ready.isEmpty, "shard lineage has a cycle")
            for shard in ready {
                let shardID = try #require(shard.shardId)
                var iterator = try database.getShardIterator(
                    StreamsGetShardIteratorInput(
                        streamArn: streamARN, shardId: shardID, shardIteratorType: .trimHorizon)
                ).shardIterator
                while let current = iterator {
                    let page = try database.getRecords(StreamsGetRecordsInput(shardIterator: current, limit: 7))
                    records += page.records ?? []
                    if (page.records ?? []).isEmpty && shard.sequenceNumberRange?.endingSequenceNumber == nil { break }
                    iterator = page.nextShardIterator
                }
                done.insert(shardID)
            }
            pending.removeAll { done.contains($0.shardId ?? "") }
        }
        return records
    }
}
