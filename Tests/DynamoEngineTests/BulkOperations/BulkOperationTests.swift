import DynamoAPI
@testable import DynamoEngine
import Foundation
import Logging
import Testing

/// StartBulkPutItems and its companions on a database with a directory object store and a
/// pinned server clock: records, errors, condition failures, pacing, cancel, idempotency,
/// listing, and an operation cut short by a restart.
@Suite struct BulkOperationTests {
    /// A database on a pinned clock whose object store is a fresh directory with the buckets
    /// `in` and `out`.
    struct Fixture {
        let root: String
        let time = PointInTimeRestoreTests.ManualTime()
        let database: Database

        init(path: String? = nil) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-\(UUID().uuidString)").path
            for bucket in ["in", "out"] {
                try FileManager.default.createDirectory(atPath: "\(root)/\(bucket)", withIntermediateDirectories: true)
            }
            database = try Database(path: path, region: "us-east-1", clock: ServerClock(systemTime: time.read))
            database.dataJobs.configure(objectStore: DirectoryObjectStore(root: root), logger: Logger(label: "test"))
            try DatabaseTests.makeTable(database)
        }

        func put(_ key: String, lines: [String]) throws {
            let path = "\(root)/in/\(key)"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        }

        func input(
            prefix: String, token: String? = nil, units: Int? = nil, types: [OutputTypeEnum] = [.error, .conditionCheckFailure]
        ) -> StartBulkPutItemsInput {
            StartBulkPutItemsInput(
                clientToken: token,
                inputS3Configuration: InputS3Configuration(s3Bucket: "in", s3KeyPrefix: prefix, inputFormat: .dynamodbJson),
                outputS3Configuration: OutputS3Configuration(s3Bucket: "out", s3KeyPrefix: prefix, outputType: types),
                tableName: "Things", maxWriteRequestUnits: units)
        }

        func start(_ input: StartBulkPutItemsInput) throws -> String {
            try #require(database.startBulkPutItems(input, now: time.read()).bulkOperationDescription.bulkOperationArn)
        }

        func describe(_ arn: String) throws -> BulkOperationDescription {
            try database.describeBulkOperation(.init(bulkOperationArn: arn)).bulkOperationDescription
        }

        /// Waits (bounded) until the running job has processed `count` records.
        func waitUntilProcessed(_ arn: String, _ count: Int) throws -> BulkOperationDescription {
            for _ in 0..<20_000 {
                let description = try describe(arn)
                if (description.processedItemCount ?? 0) >= count { return description }
                usleep(1000)
            }
            Issue.record("the job did not reach \(count) records")
            return try describe(arn)
        }

        func output(_ arn: String, prefix: String, _ type: String) throws -> [[String: JSONValue]] {
            let id = String(arn.split(separator: "/").last!)
            let text = try String(contentsOfFile: "\(root)/out/\(prefix)/AWSDynamoDB/\(id)/\(type)/part-00000.json", encoding: .utf8)
            return try text.split(separator: "\n").map { line in
                guard case .object(let object) = try JSONValue(parsing: String(line)) else { return [:] }
                return object
            }
        }

        func items() throws -> [String: Item] { try PointInTimeRestoreTests.items(of: "Things", in: database) }

        static func line(_ key: String, _ extra: String = "") -> String {
            #"{"Item": {"pk": {"S": "\#(key)"}, "v": {"N": "1"}}\#(extra)}"#
        }

        static func lines(_ count: Int) -> [String] { (0..<count).map { line(String(format: "k%05d", $0)) } }
    }

    @Test func recordsAreWrittenAndErrorsAndConditionFailuresReported() throws {
        let fixture = try Fixture()
        _ = try fixture.database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("taken"), "v": .n(DynamoNumber(7))]))
        try fixture.put(
            "p/a.json",
            lines: [
                Fixture.line("a"), "not json", #"{"Item": {"other": {"S": "x"}}}"#, #"{"Nothing": 1}"#,
                Fixture.line("taken", #", "ConditionExpression": "attribute_not_exists(pk)""#),
                Fixture.line("b", ##", "ConditionExpression": "attribute_not_exists(#k)", "ExpressionAttributeNames": {"#k": "pk"}"##),
                Fixture.line("c", #", "ConditionExpression": "v = :v", "ExpressionAttributeValues": {":v": {"N": "1"}}"#),
            ])
        let arn = try fixture.start(fixture.input(prefix: "p"))
        fixture.database.dataJobs.waitUntilIdle()
        let done = try fixture.describe(arn)
        #expect(done.bulkOperationStatus == .completedWithErrors)
        #expect(done.processedItemCount == 7)
        #expect(done.failedItemCount == 3)
        #expect(done.processedInputBytes == done.totalInputBytes)
        #expect(done.endTime != nil && done.failureCode == nil)
        let items = try fixture.items()
        #expect(items["a"] != nil && items["b"] != nil)
        #expect(items["c"] == nil, "the condition v = :v fails on a missing item")
        #expect(items["taken"]?["v"] == .n(DynamoNumber(7)))
        let errors = try fixture.output(arn, prefix: "p", "ERROR")
        #expect(errors.map { $0["Line"] } == [.number("2"), .number("3"), .number("4")])
        #expect(errors[1]["ErrorCode"] == .string("ValidationException"))
        let failures = try fixture.output(arn, prefix: "p", "CONDITION_CHECK_FAILURE")
        #expect(failures.count == 2)
        #expect(failures[0]["ExistingItem"] == .object(["pk": .object(["S": .string("taken")]), "v": .object(["N": .string("7")])]))
        #expect(failures[1]["ExistingItem"] == nil)
    }

    @Test func onlyTheRequestedOutputTypesAreWritten() throws {
        let fixture = try Fixture()
        try fixture.put("q/a.json", lines: ["bad", Fixture.line("x", #", "ConditionExpression": "attribute_exists(pk)""#)])
        let arn = try fixture.start(fixture.input(prefix: "q", types: [.conditionCheckFailure]))
        fixture.database.dataJobs.waitUntilIdle()
        #expect(try fixture.describe(arn).failedItemCount == 1)
        #expect(try fixture.output(arn, prefix: "q", "CONDITION_CHECK_FAILURE").count == 1)
        #expect(throws: (any Error).self) { try fixture.output(arn, prefix: "q", "ERROR") }
    }

    @Test func maxWriteRequestUnitsPacesTheJobOnTheServerClock() throws {
        let fixture = try Fixture()
        try fixture.put("paced/a.json", lines: Fixture.lines(3000))
        let arn = try fixture.start(fixture.input(prefix: "paced", units: 1024))
        // The clock stands still: second 0 allows 1,024 one-unit items, and no more.
        var seen = try fixture.waitUntilProcessed(arn, 1024)
        #expect(seen.processedItemCount == 1024 && seen.bulkOperationStatus == .inProgress)
        #expect(seen.totalInputBytes! > seen.processedInputBytes!)
        #expect(try fixture.items().count == 1024)
        fixture.time.tick(1)
        seen = try fixture.waitUntilProcessed(arn, 2048)
        #expect(seen.processedItemCount == 2048)
        fixture.time.tick(1)
        fixture.database.dataJobs.waitUntilIdle()
        let done = try fixture.describe(arn)
        #expect(done.bulkOperationStatus == .completed && done.processedItemCount == 3000)
        #expect(done.endTime?.secondsSince1970 == done.startTime!.secondsSince1970 + 2)
        #expect(done.bulkOperationUsage?.first?.table?.bulkPutBytes == done.bulkOperationUsage?.first?.bulkPutBytes)
    }

    @Test func cancelStopsBeforeTheNextBatchAndKeepsWhatWasWritten() throws {
        let fixture = try Fixture()
        try fixture.put("c/a.json", lines: Fixture.lines(3000))
        let arn = try fixture.start(fixture.input(prefix: "c", units: 1024))
        _ = try fixture.waitUntilProcessed(arn, 1024)
        let answer = try fixture.database.cancelBulkOperation(.init(bulkOperationArn: arn))
        #expect(answer.bulkOperationStatus == .cancelling)
        #expect(try fixture.database.cancelBulkOperation(.init(bulkOperationArn: arn)).bulkOperationStatus == .cancelling)
        fixture.database.dataJobs.waitUntilIdle()
        let done = try fixture.describe(arn)
        #expect(done.bulkOperationStatus == .cancelled && done.failureCode == BulkOperationWords.cancelledCode)
        #expect(done.processedItemCount == 1024 && done.endTime != nil)
        #expect(try fixture.items().count == 1024)
        #expect(throws: DynamoError.self) { try fixture.database.cancelBulkOperation(.init(bulkOperationArn: arn)) }
    }

    @Test func aClientTokenNamesOneOperationForEightHours() throws {
        let fixture = try Fixture()
        try fixture.put("t/a.json", lines: [Fixture.line("a")])
        let first = try fixture.start(fixture.input(prefix: "t", token: "tok"))
        #expect(try fixture.start(fixture.input(prefix: "t", token: "tok")) == first)
        let mismatch = #expect(throws: DynamoError.self) { try fixture.start(fixture.input(prefix: "t", token: "tok", units: 2048)) }
        #expect(mismatch?.code == .idempotentParameterMismatch)
        fixture.time.tick(8 * 3600)
        fixture.database.dataJobs.waitUntilIdle()
        #expect(try fixture.start(fixture.input(prefix: "t", token: "tok", units: 2048)) != first)
        fixture.database.dataJobs.waitUntilIdle()
    }

    @Test func startIsCheckedInOrder() throws {
        let fixture = try Fixture()
        var input = fixture.input(prefix: "x")
        input.outputS3Configuration.s3Bucket = nil
        #expect(throws: EngineMessages.bulkOutputBucketRequired) { try fixture.start(input) }
        input = fixture.input(prefix: "x", types: [])
        #expect(throws: EngineMessages.bulkOutputTypeRequired) { try fixture.start(input) }
        input = fixture.input(prefix: "x", types: [.error, .error])
        #expect(throws: EngineMessages.bulkOutputTypeInvalid("ERROR")) { try fixture.start(input) }
        input = fixture.input(prefix: "x")
        input.tableName = "Missing"
        #expect(throws: StreamErrors.tableNotFound("Missing")) { try fixture.start(input) }
        #expect(throws: EngineMessages.invalidBulkOperationArn) { try fixture.describe("arn:aws:dynamodb:us-east-1:000000000000:table/Things") }
        let unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/Things/bulk-operation/00000000000000-00000000"
        #expect(throws: EngineMessages.bulkOperationNotFound(unknown)) { try fixture.describe(unknown) }
    }

    @Test func asManyRunningOperationsAsTheQuotaAllowsThenLimitExceeded() throws {
        let fixture = try Fixture()
        try fixture.put("l/a.json", lines: Fixture.lines(1100))
        var arns: [String] = []
        for _ in 0..<Database.bulkConcurrencyLimit { arns.append(try fixture.start(fixture.input(prefix: "l", units: 1024))) }
        #expect(throws: EngineMessages.bulkTooManyOperations(limit: Database.bulkConcurrencyLimit)) {
            try fixture.start(fixture.input(prefix: "l", units: 1024))
        }
        for arn in arns { _ = try fixture.database.cancelBulkOperation(.init(bulkOperationArn: arn)) }
        fixture.database.dataJobs.waitUntilIdle()
        let statuses = try arns.map { try fixture.describe($0) }
        #expect(statuses.allSatisfy { $0.bulkOperationStatus == .cancelled }, "\(statuses.filter { $0.bulkOperationStatus != .cancelled })")
    }

    @Test func listingIsNewestFirstPagedAndNinetyDaysLong() throws {
        let fixture = try Fixture()
        try fixture.put("n/a.json", lines: [Fixture.line("a")])
        var arns: [String] = []
        for _ in 0..<5 {
            arns.append(try fixture.start(fixture.input(prefix: "n")))
            fixture.time.tick(1)
        }
        fixture.database.dataJobs.waitUntilIdle()
        var listed: [String] = []
        var token: String?
        repeat {
            let page = try fixture.database.listBulkOperations(.init(maxResults: 2, nextToken: token), now: fixture.time.read())
            #expect((page.bulkOperationsSummaryList ?? []).count <= 2)
            listed += (page.bulkOperationsSummaryList ?? []).map(\.bulkOperationArn)
            token = page.nextToken
            if let token { #expect(token.count % 16 == 0 && token.allSatisfy(\.isHexDigit)) }
        } while token != nil
        #expect(listed == arns.reversed())
        #expect(try fixture.database.listBulkOperations(.init(), now: fixture.time.read()).bulkOperationsSummaryList?.count == 5)
        #expect(throws: EngineMessages.invalidNextToken) {
            try fixture.database.listBulkOperations(.init(nextToken: "00"), now: fixture.time.read())
        }
        fixture.time.tick(90 * 86400 - 3)
        #expect(try fixture.database.listBulkOperations(.init(), now: fixture.time.read()).bulkOperationsSummaryList?.count == 3)
    }

    @Test func anOperationCutShortByARestartEndsFailedWithItsCounts() throws {
        let fixture = try Fixture()
        var description = BulkOperationDescription()
        description.bulkOperationArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Things/bulk-operation/01234567890123-abcdef01"
        description.bulkOperationStatus = .inProgress
        description.startTime = Timestamp(secondsSince1970: fixture.time.read())
        description.processedItemCount = 300
        try fixture.database.saveJob(
            arn: description.bulkOperationArn!, kind: Database.bulkKind, started: fixture.time.read(), description: description.jsonBytes)
        fixture.time.tick(5)
        let read = try fixture.describe(description.bulkOperationArn!)
        #expect(read.bulkOperationStatus == .failed && read.failureCode == BulkOperationWords.interruptedCode)
        #expect(read.processedItemCount == 300)
        #expect(read.endTime?.secondsSince1970 == fixture.time.read())
        fixture.time.tick(5)
        #expect(try fixture.describe(description.bulkOperationArn!) == read, "settled once, then stable")
    }

    @Test func gzippedIonRecordsCarryConditionsToo() throws {
        let fixture = try Fixture()
        _ = try fixture.database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("old"), "v": .n(DynamoNumber(2))]))
        let ion = """
            {Item: {pk: "new", v: 1}}
            {Item: {pk: "old", v: 3}, ConditionExpression: "v < :v", ExpressionAttributeValues: {':v': 3}}
            {Item: {pk: "old", v: 9}, ConditionExpression: "attribute_not_exists(pk)"}
            {NoItem: 1}
            """
        let path = "\(fixture.root)/in/ion/a.ion.gz"
        try FileManager.default.createDirectory(atPath: "\(fixture.root)/in/ion", withIntermediateDirectories: true)
        let compressed = try Gzip.compress(Array(ion.utf8))
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        var input = fixture.input(prefix: "ion")
        input.inputS3Configuration.inputFormat = .ion
        input.inputS3Configuration.inputCompressionType = .gzip
        let arn = try fixture.start(input)
        fixture.database.dataJobs.waitUntilIdle()
        let done = try fixture.describe(arn)
        #expect(done.bulkOperationStatus == .completedWithErrors)
        #expect(done.processedItemCount == 4 && done.failedItemCount == 1)
        #expect(done.totalInputBytes == compressed.count && done.processedInputBytes == compressed.count)
        let items = try fixture.items()
        #expect(items["new"]?["v"] == .n(DynamoNumber(1)))
        #expect(items["old"]?["v"] == .n(DynamoNumber(3)))
        let failures = try fixture.output(arn, prefix: "ion", "CONDITION_CHECK_FAILURE")
        #expect(failures.count == 1 && failures[0]["ExistingItem"] != nil)
    }

    @Test func aJobStoppedWithTheEngineEndsFailedWithItsCountsWhenTheFileIsReopened() throws {
        try DatabaseTests.withDatabaseFile { path in
            let fixture = try Fixture(path: path)
            try fixture.put("s/a.json", lines: Fixture.lines(3000))
            let arn = try fixture.start(fixture.input(prefix: "s", units: 1024))
            _ = try fixture.waitUntilProcessed(arn, 1024)
            fixture.database.dataJobs.stopBulkJobs()
            fixture.database.dataJobs.waitUntilIdle()
            #expect(try fixture.describe(arn).bulkOperationStatus == .inProgress, "left as its last batch stored it")
            let reopened = try Database(path: path, region: "us-east-1", clock: ServerClock(systemTime: fixture.time.read))
            let read = try reopened.describeBulkOperation(.init(bulkOperationArn: arn)).bulkOperationDescription
            #expect(read.bulkOperationStatus == .failed && read.processedItemCount == 1024)
            #expect(try PointInTimeRestoreTests.items(of: "Things", in: reopened).count == 1024)
        }
    }

    @Test func largerItemsCostMoreUnitsAndNeverOverrunTheSecond() throws {
        let fixture = try Fixture()
        let padding = String(repeating: "x", count: 2500)
        try fixture.put(
            "big/a.json",
            lines: (0..<400).map {
                Fixture.line("b\($0)", #", "Ignored": 0"#).replacingOccurrences(of: #""v": {"N": "1"}"#, with: #""v": {"S": "\#(padding)"}"#)
            })
        let arn = try fixture.start(fixture.input(prefix: "big", units: 1024))
        // Three units an item: 341 items (1,023 units) fit in second 0, the 342nd does not.
        let seen = try fixture.waitUntilProcessed(arn, 341)
        #expect(seen.processedItemCount == 341)
        fixture.time.tick(1)
        fixture.database.dataJobs.waitUntilIdle()
        #expect(try fixture.describe(arn).processedItemCount == 400)
    }
}
