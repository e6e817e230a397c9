import DynamoAPI
@testable import DynamoEngine
import Foundation
import Logging
import Testing

/// ExportTableToPointInTime's `FilterSpecification`: the expressions' rules (a Query's or a
/// Scan's, word for word) and what the export's objects hold.
@Suite struct ExportFilterTests {
    static let arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders"

    /// A database on a manual clock with `Orders` (`pk` S, `sk` N), point-in-time recovery on.
    static func database(_ store: DirectoryObjectStore, time: PointInTimeRestoreTests.ManualTime) throws -> Database {
        let database = try Database(path: nil, region: "us-east-1", clock: ServerClock(systemTime: time.read))
        database.dataJobs.configure(objectStore: store, logger: Logger(label: "test"))
        _ = try database.createTable(
            CreateTableInput(
                attributeDefinitions: [.init(attributeName: "pk", attributeType: .s), .init(attributeName: "sk", attributeType: .n)],
                tableName: "Orders",
                keySchema: [.init(attributeName: "pk", keyType: .hash), .init(attributeName: "sk", keyType: .range)],
                billingMode: .payPerRequest),
            now: time.read())
        _ = try database.updateContinuousBackups(
            .init(tableName: "Orders", pointInTimeRecoverySpecification: .init(pointInTimeRecoveryEnabled: true)), now: time.read())
        return database
    }

    static func put(_ database: Database, _ pk: String, _ sk: Int, status: String, total: Int) throws {
        _ = try database.putItem(
            PutItemInput(
                tableName: "Orders",
                item: ["pk": .s(pk), "sk": .n(DynamoNumber(sk)), "status": .s(status), "total": .n(DynamoNumber(total)), "note": .s("n")]))
    }

    /// Runs an export to completion; returns its description and the lines of its data objects.
    static func export(
        _ database: Database, root: String, _ input: ExportTableToPointInTimeInput, now: Double
    ) throws -> (ExportDescription, [[String: JSONValue]]) {
        let started = try database.exportTableToPointInTime(input, now: now)
        database.dataJobs.waitUntilIdle()
        let arn = try #require(started.exportDescription?.exportArn)
        let done = try #require(database.describeExport(.init(exportArn: arn)).exportDescription)
        try #require(done.exportStatus == .completed, "\(done.failureMessage ?? "")")
        let id = String(arn.split(separator: "/").last!)
        let directory = "\(root)/bucket/p/AWSDynamoDB/\(id)/data"
        var lines: [[String: JSONValue]] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let bytes = try Gzip.decompress(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(file)"))))
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                guard case .object(let members) = try JSONValue(parsing: Array(line)) else { continue }
                lines.append(members)
            }
        }
        return (done, lines)
    }

    static func item(_ value: JSONValue?) throws -> Item {
        try AttributeValue.decodeItem(try #require(value))
    }

    static func filter(
        key: String? = nil, filter: String? = nil, projection: String? = nil, names: [String: String]? = nil,
        values: [String: AttributeValue]? = nil
    ) -> FilterSpecification {
        FilterSpecification(
            filterExpression: filter, projectionExpression: projection, keyConditionExpression: key,
            expressionAttributeNames: names, expressionAttributeValues: values)
    }

    @Test func aFilteredFullExportHoldsExactlyTheFilteredItemsProjected() throws {
        try ExportImportTests.withStore { root, store in
            let time = PointInTimeRestoreTests.ManualTime()
            let database = try Self.database(store, time: time)
            for sk in 0..<8 {
                try Self.put(database, "a", sk, status: sk % 2 == 0 ? "open" : "done", total: sk * 10)
                try Self.put(database, "b", sk, status: "open", total: sk * 10)
            }
            time.tick(10)
            let exportTime = time.read()
            time.tick(10)
            // After the export time: the export holds these items as they were before.
            try Self.put(database, "a", 2, status: "done", total: 20)
            _ = try database.deleteItem(DeleteItemInput(tableName: "Orders", key: ["pk": .s("a"), "sk": .n(DynamoNumber(4))]))
            try Self.put(database, "a", 3, status: "open", total: 30)
            let specification = Self.filter(
                key: "pk = :p AND sk BETWEEN :low AND :high", filter: "#s = :open AND #t >= :min", projection: "pk, sk, #t",
                names: ["#s": "status", "#t": "total"],
                values: [":p": .s("a"), ":low": .n(DynamoNumber(1)), ":high": .n(DynamoNumber(6)), ":open": .s("open"), ":min": .n(DynamoNumber(20))])
            let (description, lines) = try Self.export(
                database, root: root,
                .init(
                    tableArn: Self.arn, exportTime: Timestamp(secondsSince1970: exportTime), s3Bucket: "bucket", s3Prefix: "p",
                    filterSpecification: specification),
                now: time.read())
            let items = try lines.map { try Self.item($0["Item"]) }.sorted { "\($0["sk"]!)" < "\($1["sk"]!)" }
            #expect(items == [2, 4, 6].map { ["pk": .s("a"), "sk": .n(DynamoNumber($0)), "total": .n(DynamoNumber($0 * 10))] })
            #expect(description.itemCount == 3)
            #expect(description.filterSpecification == specification)
            // The filter is reported back by DescribeExport; ListExports' summaries have no member for it.
            let listed = try database.listExports(.init()).exportSummaries ?? []
            #expect(listed.map(\.exportArn) == [description.exportArn])

            // A filter alone may read the key attributes (a Scan's filter); ION takes the same path.
            let (_, scanned) = try Self.export(
                database, root: root,
                .init(
                    tableArn: Self.arn, s3Bucket: "bucket", s3Prefix: "p", exportFormat: .dynamodbJson,
                    filterSpecification: Self.filter(filter: "pk = :b AND sk < :two", values: [":b": .s("b"), ":two": .n(DynamoNumber(2))])),
                now: time.read())
            #expect(try scanned.map { try Self.item($0["Item"])["sk"] }.count == 2)
            // A projection alone keeps every item.
            let (_, projected) = try Self.export(
                database, root: root,
                .init(tableArn: Self.arn, s3Bucket: "bucket", s3Prefix: "p", filterSpecification: Self.filter(projection: "note")),
                now: time.read())
            #expect(try projected.map { try Self.item($0["Item"]) } == Array(repeating: ["note": .s("n")], count: 15))
        }
    }

    @Test func anIncrementalExportFiltersTheNewestImageOrADeletedItemsOldOne() throws {
        try ExportImportTests.withStore { root, store in
            let time = PointInTimeRestoreTests.ManualTime()
            let database = try Self.database(store, time: time)
            try Self.put(database, "a", 1, status: "open", total: 1)
            try Self.put(database, "a", 2, status: "open", total: 2)
            try Self.put(database, "a", 3, status: "open", total: 3)
            try Self.put(database, "b", 1, status: "open", total: 1)
            time.tick(60)
            let from = time.read()
            time.tick(1)
            try Self.put(database, "a", 1, status: "done", total: 10) // newest image no longer open: left out
            _ = try database.deleteItem(DeleteItemInput(tableName: "Orders", key: ["pk": .s("a"), "sk": .n(DynamoNumber(2))])) // old image open
            try Self.put(database, "a", 4, status: "open", total: 4)
            try Self.put(database, "b", 1, status: "open", total: 5) // another partition
            time.tick(20 * 60)
            let (_, lines) = try Self.export(
                database, root: root,
                .init(
                    tableArn: Self.arn, s3Bucket: "bucket", s3Prefix: "p", exportType: .incrementalExport,
                    incrementalExportSpecification: .init(
                        exportFromTime: Timestamp(secondsSince1970: from), exportToTime: Timestamp(secondsSince1970: from + 15 * 60)),
                    filterSpecification: Self.filter(
                        key: "pk = :a", filter: "#s = :open", projection: "#t", names: ["#s": "status", "#t": "total"],
                        values: [":a": .s("a"), ":open": .s("open")])),
                now: time.read())
            let byKey = try Dictionary(
                uniqueKeysWithValues: lines.map { line in ("\(try Self.item(line["Keys"])["sk"]!)", line) })
            #expect(byKey.keys.sorted() == ["\(AttributeValue.n(DynamoNumber(2)))", "\(AttributeValue.n(DynamoNumber(4)))"])
            let deleted = try #require(byKey["\(AttributeValue.n(DynamoNumber(2)))"])
            #expect(deleted["NewImage"] == nil)
            #expect(try Self.item(deleted["OldImage"]) == ["total": .n(DynamoNumber(2))])
            #expect(try Self.item(deleted["Keys"]) == ["pk": .s("a"), "sk": .n(DynamoNumber(2))])
            let inserted = try #require(byKey["\(AttributeValue.n(DynamoNumber(4)))"])
            #expect(try Self.item(inserted["NewImage"]) == ["total": .n(DynamoNumber(4))])
        }
    }

    /// Each specification is refused with the error a Query (with a key condition) or a Scan
    /// (without) with the same expressions gets, before anything is recorded.
    @Test(
        arguments: [
            ExportFilterTests.filter(key: "sk = :s", values: [":s": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(key: "status = :s", values: [":s": .s("x")]),
            ExportFilterTests.filter(
                key: "pk = :p AND sk = :s AND total = :t", values: [":p": .s("a"), ":s": .n(DynamoNumber(1)), ":t": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(key: "pk < :p", values: [":p": .s("a")]),
            ExportFilterTests.filter(key: "pk = :p OR sk = :s", values: [":p": .s("a"), ":s": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(key: "pk = :p", values: [":p": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(key: "pk = :p AND begins_with(sk, :s)", values: [":p": .s("a"), ":s": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(key: "pk = :p", filter: "sk > :s", values: [":p": .s("a"), ":s": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(key: "pk = :p", filter: "#k = :p", names: ["#k": "pk"], values: [":p": .s("a")]),
            ExportFilterTests.filter(key: "pk = :p", values: [":p": .s("a"), ":unused": .s("b")]),
            ExportFilterTests.filter(key: "pk = :p"),
            ExportFilterTests.filter(filter: "#missing = :v", values: [":v": .s("a")]),
            ExportFilterTests.filter(filter: "total = = :v", values: [":v": .n(DynamoNumber(1))]),
            ExportFilterTests.filter(filter: "status = :v", values: [":v": .s("a")]),
            ExportFilterTests.filter(filter: "pk.inner = :v", values: [":v": .s("a")]),
            ExportFilterTests.filter(projection: "note", values: [":v": .s("a")]),
            ExportFilterTests.filter(projection: "note", names: ["#n": "note"]),
            ExportFilterTests.filter(projection: "note, note"),
            ExportFilterTests.filter(filter: ""),
            ExportFilterTests.filter(filter: "total > :v", values: [:]),
        ] as [FilterSpecification])
    func invalidSpecificationsAreRefusedAsQueriesAndScansAre(specification: FilterSpecification) throws {
        try ExportImportTests.withStore { _, store in
            let time = PointInTimeRestoreTests.ManualTime()
            let database = try Self.database(store, time: time)
            var expected: DynamoError
            do {
                if let key = specification.keyConditionExpression {
                    _ = try database.query(
                        QueryInput(
                            tableName: "Orders", projectionExpression: specification.projectionExpression,
                            filterExpression: specification.filterExpression, keyConditionExpression: key,
                            expressionAttributeNames: specification.expressionAttributeNames,
                            expressionAttributeValues: specification.expressionAttributeValues))
                } else {
                    _ = try database.scan(
                        ScanInput(
                            tableName: "Orders", projectionExpression: specification.projectionExpression,
                            filterExpression: specification.filterExpression,
                            expressionAttributeNames: specification.expressionAttributeNames,
                            expressionAttributeValues: specification.expressionAttributeValues))
                }
                Issue.record("the read was accepted: \(specification)")
                return
            } catch let error as DynamoError {
                expected = error
            }
            if specification.filterExpression == nil, specification.keyConditionExpression == nil,
                specification.expressionAttributeValues != nil
            {
                // Values with neither expression that takes them: named as a Query names them, both
                // being members of a FilterSpecification (a Scan names its filter only).
                expected = DynamoError.validation(
                    "ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null")
            }
            #expect(throws: expected) {
                try database.exportTableToPointInTime(
                    .init(tableArn: Self.arn, s3Bucket: "bucket", filterSpecification: specification), now: time.read())
            }
            #expect(try database.listExports(.init()).exportSummaries?.isEmpty ?? true)
        }
    }

    @Test func aFilterIsCheckedAfterTheTableAndItsRecoverySettings() throws {
        try ExportImportTests.withStore { _, store in
            let time = PointInTimeRestoreTests.ManualTime()
            let database = try Self.database(store, time: time)
            let bad = Self.filter(filter: "total = = 1")
            #expect(throws: EngineMessages.tableNotFound(name: "arn:aws:dynamodb:us-east-1:000000000000:table/Missing")) {
                try database.exportTableToPointInTime(
                    .init(tableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/Missing", s3Bucket: "bucket", filterSpecification: bad),
                    now: time.read())
            }
            _ = try database.updateContinuousBackups(
                .init(tableName: "Orders", pointInTimeRecoverySpecification: .init(pointInTimeRecoveryEnabled: false)), now: time.read())
            #expect(throws: EngineMessages.pointInTimeRecoveryNotEnabled(name: "Orders")) {
                try database.exportTableToPointInTime(.init(tableArn: Self.arn, s3Bucket: "bucket", filterSpecification: bad), now: time.read())
            }
        }
    }
}
