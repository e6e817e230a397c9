import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// Resource policies, Contributor Insights and Kinesis destinations: state kept with the table,
/// transitions on the server clock.
@Suite struct ControlSettingsTests {
    typealias FakeTime = ServerClockTests.FakeSystemTime

    static func database(_ time: FakeTime) throws -> Database {
        let database = try Database(path: nil, region: "us-east-1", clock: ServerClock(systemTime: time.read))
        try DatabaseTests.makeTable(database)
        return database
    }

    static let arn = ResourceNames.tableARN(region: "us-east-1", table: "Things")
    static let document = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem"}]}"#

    @Test func policyRevisionsGrowEvenWithinOneMillisecond() throws {
        let database = try Self.database(FakeTime())
        let first = try database.putResourcePolicy(PutResourcePolicyInput(resourceArn: Self.arn, policy: Self.document))
        #expect(try database.putResourcePolicy(PutResourcePolicyInput(resourceArn: Self.arn, policy: Self.document)) == first)
        let other = Self.document.replacingOccurrences(of: "GetItem", with: "Query")
        let second = try database.putResourcePolicy(
            PutResourcePolicyInput(
                resourceArn: Self.arn, policy: other, expectedRevisionId: first.revisionId))
        #expect(Int(try #require(second.revisionId))! > Int(try #require(first.revisionId))!)
        #expect(throws: DynamoError.self) {
            try database.deleteResourcePolicy(DeleteResourcePolicyInput(resourceArn: Self.arn, expectedRevisionId: first.revisionId))
        }
        #expect(try database.getResourcePolicy(GetResourcePolicyInput(resourceArn: Self.arn)).policy == other)
    }

    @Test(arguments: [
        ("[]", "Invalid policy document"), ("{\"Version\":\"2012-10-17\"}", "Statement"),
        ("{\"Statement\":3}", "Statement"), ("20 KB and one byte", "Maximum policy size of 20480 bytes exceeded"),
    ])
    func badPolicyDocuments(document: String, fragment: String) throws {
        let padding = String(repeating: " ", count: 20 * 1024 - 15)
        let document = document == "20 KB and one byte" ? "{\"Statement\":[]\(padding)}" : document
        let database = try Self.database(FakeTime())
        do {
            _ = try database.putResourcePolicy(PutResourcePolicyInput(resourceArn: Self.arn, policy: document))
            Issue.record("accepted \(document.prefix(40))")
        } catch let error as DynamoError {
            #expect(error.code == .validation)
            #expect(error.message?.contains(fragment) == true, "\(error.message ?? "")")
        }
    }

    @Test func aDocumentOfExactly20KBIsAccepted() throws {
        let database = try Self.database(FakeTime())
        let document = "{\"Statement\":{}\(String(repeating: " ", count: 20 * 1024 - 16))}"
        #expect(document.utf8.count == 20 * 1024)
        _ = try database.putResourcePolicy(PutResourcePolicyInput(resourceArn: Self.arn, policy: document))
    }

    @Test func contributorInsightsSettleAfterASecondOfServerTime() throws {
        let time = FakeTime()
        let database = try Self.database(time)
        let describe = { try database.describeContributorInsights(DescribeContributorInsightsInput(tableName: "Things")) }
        #expect(try describe().contributorInsightsStatus == .disabled)
        _ = try database.updateContributorInsights(UpdateContributorInsightsInput(tableName: "Things", contributorInsightsAction: .enable))
        #expect(try describe().contributorInsightsStatus == .enabling)
        time.tick(1)
        #expect(try describe().contributorInsightsStatus == .enabled)
        #expect(try describe().contributorInsightsRuleList?.count == 2)
        _ = try database.updateContributorInsights(UpdateContributorInsightsInput(tableName: "Things", contributorInsightsAction: .disable))
        #expect(try describe().contributorInsightsStatus == .disabling)
        time.tick(1)
        #expect(try describe().contributorInsightsStatus == .disabled)
        let listed = try database.listContributorInsights(ListContributorInsightsInput())
        #expect(listed.contributorInsightsSummaries?.map(\.tableName) == ["Things"])
    }

    @Test func kinesisDestinationMovesThroughItsStatuses() throws {
        let time = FakeTime()
        let database = try Self.database(time)
        let stream = "arn:aws:kinesis:us-east-1:000000000000:stream/orders"
        let input = KinesisStreamingDestinationInput(tableName: "Things", streamArn: stream)
        let status = {
            try database.describeKinesisStreamingDestination(
                DescribeKinesisStreamingDestinationInput(tableName: "Things")
            ).kinesisDataStreamDestinations?.first?.destinationStatus
        }
        #expect(try database.enableKinesisStreamingDestination(input).destinationStatus == .enabling)
        #expect(try status() == .enabling)
        #expect(throws: DynamoError.self) { try database.disableKinesisStreamingDestination(input) }
        time.tick(1)
        #expect(try status() == .active)
        _ = try database.updateKinesisStreamingDestination(
            UpdateKinesisStreamingDestinationInput(
                tableName: "Things", streamArn: stream,
                updateKinesisStreamingConfiguration: UpdateKinesisStreamingConfiguration(approximateCreationDateTimePrecision: .microsecond)))
        #expect(try status() == .updating)
        #expect(throws: DynamoError.self) {
            try database.enableKinesisStreamingDestination(
                KinesisStreamingDestinationInput(tableName: "Things", streamArn: stream + "-2"))
        }
        time.tick(1)
        #expect(try database.disableKinesisStreamingDestination(input).destinationStatus == .disabling)
        time.tick(1)
        #expect(try status() == .disabled)
        // A disabled destination can be enabled again.
        #expect(try database.enableKinesisStreamingDestination(input).destinationStatus == .enabling)
    }

    @Test func aNonKinesisARNEndsEnableFailedAndBlocksNothing() throws {
        let time = FakeTime()
        let database = try Self.database(time)
        let bad = "arn:aws:sqs:us-east-1:000000000000:queue/not-a-stream"
        _ = try database.enableKinesisStreamingDestination(KinesisStreamingDestinationInput(tableName: "Things", streamArn: bad))
        time.tick(1)
        let failed = try database.describeKinesisStreamingDestination(
            DescribeKinesisStreamingDestinationInput(tableName: "Things")
        ).kinesisDataStreamDestinations?.first
        #expect(failed?.destinationStatus == .enableFailed)
        #expect(failed?.destinationStatusDescription != nil)
        let good = KinesisStreamingDestinationInput(tableName: "Things", streamArn: "arn:aws:kinesis:us-east-1:000000000000:stream/s")
        #expect(try database.enableKinesisStreamingDestination(good).destinationStatus == .enabling)
    }

    @Test func settingsSurviveAReopen() throws {
        let directory = "/tmp/localdynamo-settings-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/db.sqlite"
        do {
            let database = try Database(path: path, region: "us-east-1")
            try DatabaseTests.makeTable(database)
            _ = try database.putResourcePolicy(PutResourcePolicyInput(resourceArn: Self.arn, policy: Self.document))
        }
        let reopened = try Database(path: path, region: "us-east-1")
        #expect(try reopened.getResourcePolicy(GetResourcePolicyInput(resourceArn: Self.arn)).policy == Self.document)
    }
}
