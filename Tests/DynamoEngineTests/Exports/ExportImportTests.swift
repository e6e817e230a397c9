import DynamoAPI
@testable import DynamoEngine
import Foundation
import Logging
import Testing

/// Exports and imports through a directory object store, run on the job queue.
@Suite struct ExportImportTests {
    static func withStore(_ body: (String, DirectoryObjectStore) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/bucket", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try body(root, DirectoryObjectStore(root: root))
    }

    @Test func exportAtAnEarlierSecondThenImportRoundTrips() throws {
        try Self.withStore { root, store in
            let time = PointInTimeRestoreTests.ManualTime()
            let database = try Database(path: nil, region: "us-east-1", clock: ServerClock(systemTime: time.read))
            database.dataJobs.configure(objectStore: store, logger: Logger(label: "test"))
            try DatabaseTests.makeTable(database)
            _ = try database.updateContinuousBackups(
                .init(tableName: "Things", pointInTimeRecoverySpecification: .init(pointInTimeRecoveryEnabled: true)),
                now: time.read())
            for index in 0..<30 {
                _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("k\(index)"), "n": .n(DynamoNumber(index))]))
            }
            time.tick(10)
            let exportTime = time.read()
            time.tick(10)
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("later")]))
            _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s("k0")]))
            let started = try database.exportTableToPointInTime(
                .init(
                    tableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/Things",
                    exportTime: Timestamp(secondsSince1970: exportTime), s3Bucket: "bucket", s3Prefix: "p"),
                now: time.read())
            database.dataJobs.waitUntilIdle()
            let arn = try #require(started.exportDescription?.exportArn)
            let done = try #require(database.describeExport(.init(exportArn: arn)).exportDescription)
            #expect(done.exportStatus == .completed)
            #expect(done.itemCount == 30)
            let id = String(arn.split(separator: "/").last!)
            let imported = try database.importTable(
                .init(
                    s3BucketSource: .init(s3Bucket: "bucket", s3KeyPrefix: "p/AWSDynamoDB/\(id)/data/"),
                    inputFormat: .dynamodbJson, inputCompressionType: .gzip,
                    tableCreationParameters: .init(
                        tableName: "Copy",
                        attributeDefinitions: [.init(attributeName: "pk", attributeType: .s)],
                        keySchema: [.init(attributeName: "pk", keyType: .hash)],
                        billingMode: .payPerRequest)),
                now: time.read())
            database.dataJobs.waitUntilIdle()
            let importArn = try #require(imported.importTableDescription.importArn)
            let finished = try database.describeImport(.init(importArn: importArn)).importTableDescription
            #expect(finished.importStatus == .completed)
            #expect(finished.importedItemCount == 30)
            let copy = try PointInTimeRestoreTests.items(of: "Copy", in: database)
            #expect(copy.count == 30 && copy["k0"] != nil && copy["later"] == nil)
            #expect(FileManager.default.fileExists(atPath: "\(root)/bucket/p/AWSDynamoDB/\(id)/manifest-summary.md5"))
        }
    }

    @Test func aJobCutShortByARestartReadsAsFailed() throws {
        let database = try Database(path: nil, region: "us-east-1")
        var description = ExportDescription()
        description.exportArn = "arn:aws:dynamodb:us-east-1:000000000000:table/T/export/01234567890123-abcdef01"
        description.exportStatus = .inProgress
        try database.saveJob(
            arn: description.exportArn!, kind: Database.exportKind, started: 1,
            description: description.jsonBytes)
        let read = try database.describeExport(.init(exportArn: description.exportArn!)).exportDescription
        #expect(read?.exportStatus == .failed)
        #expect(read?.failureMessage == DataJobs.interrupted)
    }
}
