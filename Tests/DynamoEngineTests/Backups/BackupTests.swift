import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// On-demand backups: consistent copies that survive a restart and restore into new tables.
@Suite struct BackupTests {
    @Test func backupSurvivesARestartAndRestores() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backups-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let arn: String
        do {
            let database = try Database(path: path, region: "us-east-1")
            try DatabaseTests.makeTable(database, sortKey: true)
            for index in 0..<50 {
                _ = try database.putItem(
                    PutItemInput(
                        tableName: "Things",
                        item: ["pk": .s("p\(index % 5)"), "sk": .n(DynamoNumber(index))]))
            }
            arn = try #require(
                database.createBackup(.init(tableName: "Things", backupName: "before"), now: 1_800_000_000)
                    .backupDetails?.backupArn)
            _ = try database.deleteTable(named: "Things")
        }
        let reopened = try Database(path: path, region: "us-east-1")
        let described = try reopened.describeBackup(.init(backupArn: arn)).backupDescription
        #expect(described?.sourceTableDetails?.itemCount == 50)
        #expect(described?.backupDetails?.backupStatus == .available)
        let restored = try reopened.restoreTableFromBackup(
            .init(targetTableName: "Things", backupArn: arn),
            now: 1_800_000_100)
        #expect(restored.itemCount == 50)
        #expect(restored.definition.restoreSummary?.sourceBackupARN == arn)
        #expect(try reopened.listBackups(.init()).backupSummaries?.map(\.backupArn) == [arn])
        _ = try reopened.deleteBackup(.init(backupArn: arn))
        #expect(throws: DynamoError(.backupNotFound, "Backup not found: \(arn)")) {
            try reopened.describeBackup(.init(backupArn: arn))
        }
    }

    @Test func restoreRefusesAnExistingTableAndUnknownIndexes() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        let arn = try #require(
            database.createBackup(.init(tableName: "Things", backupName: "b01"), now: 1)
                .backupDetails?.backupArn)
        #expect(throws: DynamoError(.tableAlreadyExists, "Table already exists: Things")) {
            try database.restoreTableFromBackup(.init(targetTableName: "Things", backupArn: arn), now: 2)
        }
        let index = GlobalSecondaryIndex(
            indexName: "nope", keySchema: [.init(attributeName: "pk", keyType: .hash)],
            projection: .init(projectionType: .all))
        #expect(throws: DynamoError.self) {
            try database.restoreTableFromBackup(
                .init(
                    targetTableName: "Other", backupArn: arn,
                    globalSecondaryIndexOverride: [index]), now: 2)
        }
        #expect(throws: DynamoError(.tableNotFound, "Table not found: Missing")) {
            try database.createBackup(.init(tableName: "Missing", backupName: "b01"), now: 1)
        }
    }
}
